// The engine's session policy (`engine.account`) over the real store on PGlite, on an injected
// clock: token checks at sign-in, the throttled touch, expiry under changed settings.

import { openTestEngine, type TestEngine } from '@tis/test-utils/engine'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createEngine,
  type Engine,
  type EngineStore,
  type SessionSettings,
  sha256Hex,
} from '../src/index'

const ADMIN = `tis_user_${'b'.repeat(48)}`
const MINUTE = 60_000
let base: TestEngine
let store: EngineStore
let clock = new Date('2026-03-01T00:00:00Z')
const now = () => clock
const advance = (ms: number) => {
  clock = new Date(clock.getTime() + ms)
}

/** An engine over the shared store with these session settings and the test clock. */
const engineWith = (sessions: Partial<SessionSettings> = {}): Engine =>
  createEngine({
    store,
    config: { adminEmails: ['admin@example.com'], sessions },
    adapters: { now },
  })

const lastSeen = async (secret: string) =>
  (await store.findSession(sha256Hex(secret)))?.session.lastSeenAt

beforeAll(async () => {
  base = await openTestEngine()
  store = base.store
  await store.createUser({
    id: '01950000-0000-7000-8000-000000000001',
    email: 'admin@example.com',
    tokenDigest: sha256Hex(ADMIN),
    createdAt: clock,
  })
}, 60_000)
afterAll(async () => {
  await base?.close()
})

describe('engine.account sessions', () => {
  it('opens a session only for a valid user access token', async () => {
    const account = engineWith().account
    for (const token of ['', 'tis_user_unknown', `tis_${'b'.repeat(48)}`, `${ADMIN} x`]) {
      expect(await account.signIn(token), token).toBeNull()
    }
    const opened = await account.signIn(ADMIN, { userAgent: 'u'.repeat(600), ip: '192.0.2.1' })
    expect(opened).toMatchObject({ user: { email: 'admin@example.com' }, admin: true })
    expect(opened!.secret).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(opened!.session.userAgent).toHaveLength(512)
    expect(opened!.session.ip).toBe('192.0.2.1')
  })

  it('refuses malformed session ids without a lookup, and unknown ones', async () => {
    const account = engineWith().account
    for (const secret of ['', 'short', `${'A'.repeat(43)}=`, 'A'.repeat(43)]) {
      expect(await account.resolveSession(secret), secret).toBeNull()
    }
  })

  it('writes last_seen_at at most once per touch interval, the idle expiry capped at the absolute one', async () => {
    const account = engineWith({ idleSeconds: 3600, maxAgeSeconds: 7200 }).account
    const { secret, session } = (await account.signIn(ADMIN))!
    advance(30_000)
    expect((await account.resolveSession(secret))?.session.lastSeenAt).toEqual(session.createdAt)
    expect(await lastSeen(secret)).toEqual(session.createdAt)
    advance(31_000)
    const touched = (await account.resolveSession(secret))!.session
    expect(touched.lastSeenAt).toEqual(clock)
    expect(await lastSeen(secret)).toEqual(clock)
    advance(50 * MINUTE)
    expect((await account.resolveSession(secret))?.session.idleExpiresAt).toEqual(
      new Date(clock.getTime() + 60 * MINUTE),
    )
    advance(50 * MINUTE)
    const late = (await account.resolveSession(secret))!.session
    expect(late.idleExpiresAt).toEqual(session.expiresAt)
    expect((await store.findSession(sha256Hex(secret)))?.session.idleExpiresAt).toEqual(
      session.expiresAt,
    )
  })

  it('applies a shortened idle or absolute setting to existing sessions at once, never extends one', async () => {
    const long = engineWith({ idleSeconds: 3600, maxAgeSeconds: 7200 }).account
    const a = (await long.signIn(ADMIN))!
    const b = (await long.signIn(ADMIN))!
    advance(20 * MINUTE)
    expect(await engineWith({ idleSeconds: 600 }).account.resolveSession(a.secret)).toBeNull()
    // Still alive under the settings it was made with, until a shorter cap ends it too.
    expect(await long.resolveSession(b.secret)).not.toBeNull()
    expect(await engineWith({ maxAgeSeconds: 900 }).account.resolveSession(b.secret)).toBeNull()

    const c = (await long.signIn(ADMIN))!
    advance(61 * MINUTE)
    const longer = engineWith({ idleSeconds: 86_400, maxAgeSeconds: 86_400 }).account
    expect(await longer.resolveSession(c.secret)).toBeNull()
    expect(await store.findSession(sha256Hex(c.secret))).toBeNull()
  })

  it('signs out one session and keeps the others', async () => {
    const account = engineWith().account
    const a = (await account.signIn(ADMIN))!
    const b = (await account.signIn(ADMIN))!
    expect(await account.signOut(a.secret)).toBe(true)
    expect(await account.signOut(a.secret)).toBe(false)
    expect(await account.signOut('not-a-session')).toBe(false)
    expect(await account.resolveSession(a.secret)).toBeNull()
    expect(await account.resolveSession(b.secret)).not.toBeNull()
  })
})
