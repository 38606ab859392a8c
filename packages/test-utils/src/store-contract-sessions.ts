import { randomUUID } from 'node:crypto'
import type { IngestStore, NewSession } from '@tis/ingest'
import { describe, expect, it } from 'vitest'
import { at, uniqueHash } from './store-fixtures'
import type { StoreHarness } from './store-probe'

/** A user with one access token (its digest), for the session tests. */
async function seedUser(store: IngestStore) {
  const id = randomUUID()
  const tokenDigest = uniqueHash()
  const user = await store.createUser({
    id,
    email: `sessions-${id}@example.com`,
    tokenDigest,
    createdAt: at(0),
  })
  return { user, tokenDigest }
}

/** A session of the user opened at `opened` seconds, live for `idle` and `max` seconds. */
function newSession(
  userId: string,
  tokenDigest: string,
  opened: number,
  { idle = 600, max = 3600 } = {},
): NewSession {
  return {
    id: randomUUID(),
    digest: uniqueHash(),
    userId,
    tokenDigest,
    createdAt: at(opened),
    lastSeenAt: at(opened),
    idleExpiresAt: at(opened + Math.min(idle, max)),
    expiresAt: at(opened + max),
    userAgent: 'Mozilla/5.0 (contract)',
    ip: '192.0.2.7',
  }
}

/** The record the store answers for a {@link NewSession}: everything but the two digests. */
const recordOf = ({ digest: _d, tokenDigest: _t, ...record }: NewSession) => record

/** Dashboard sessions: stored by digest, touched, listed, deleted, pruned, ended by rotation. */
export function describeSessionsContract(h: () => StoreHarness) {
  describe('dashboard sessions', () => {
    it('stores a session findable by its digest with its user; unknown digests are null', async () => {
      const { store } = h()
      const { user, tokenDigest } = await seedUser(store)
      const input = newSession(user.id, tokenDigest, 10)
      expect(await store.createSession(input)).toEqual(recordOf(input))
      expect(await store.findSession(input.digest)).toEqual({ session: recordOf(input), user })
      expect(await store.findSession(uniqueHash())).toBeNull()
    })

    it('stores nothing for an access token that no longer exists', async () => {
      const { store } = h()
      const { user } = await seedUser(store)
      const input = newSession(user.id, uniqueHash(), 10)
      expect(await store.createSession(input)).toBeNull()
      expect(await store.findSession(input.digest)).toBeNull()
    })

    it('moves last_seen_at and the idle expiry forward, never back, never past expires_at', async () => {
      const { store } = h()
      const { user, tokenDigest } = await seedUser(store)
      const input = newSession(user.id, tokenDigest, 0, { idle: 600, max: 1000 })
      await store.createSession(input)
      await store.touchSession(input.digest, at(300), at(900))
      expect((await store.findSession(input.digest))?.session).toMatchObject({
        lastSeenAt: at(300),
        idleExpiresAt: at(900),
      })
      await store.touchSession(input.digest, at(200), at(800))
      expect((await store.findSession(input.digest))?.session.lastSeenAt).toEqual(at(300))
      await store.touchSession(input.digest, at(700), at(1300))
      expect((await store.findSession(input.digest))?.session).toMatchObject({
        lastSeenAt: at(700),
        idleExpiresAt: at(1000),
        expiresAt: at(1000),
      })
    })

    it('lists a user’s live sessions, most recently seen first, and no one else’s', async () => {
      const { store } = h()
      const { user, tokenDigest } = await seedUser(store)
      const other = await seedUser(store)
      const older = newSession(user.id, tokenDigest, 0)
      const newer = newSession(user.id, tokenDigest, 100)
      const idle = newSession(user.id, tokenDigest, 0, { idle: 50 })
      for (const s of [older, newer, idle, newSession(other.user.id, other.tokenDigest, 0)]) {
        await store.createSession(s)
      }
      expect(await store.listUserSessions(user.id, at(120))).toEqual([
        recordOf(newer),
        recordOf(older),
      ])
    })

    it('deletes one session, then every session of a user, counting them', async () => {
      const { store } = h()
      const { user, tokenDigest } = await seedUser(store)
      const other = await seedUser(store)
      const sessions = [0, 1, 2].map((i) => newSession(user.id, tokenDigest, i))
      const theirs = newSession(other.user.id, other.tokenDigest, 0)
      for (const s of [...sessions, theirs]) await store.createSession(s)
      expect(await store.deleteSession(sessions[0]!.digest)).toBe(true)
      expect(await store.deleteSession(sessions[0]!.digest)).toBe(false)
      expect(await store.deleteUserSessions(user.id)).toBe(2)
      expect(await store.deleteUserSessions(user.id)).toBe(0)
      expect(await store.findSession(sessions[1]!.digest)).toBeNull()
      expect(await store.findSession(theirs.digest)).not.toBeNull()
    })

    it('prunes sessions whose idle expiry has passed, and only those', async () => {
      const { store } = h()
      const { user, tokenDigest } = await seedUser(store)
      const expired = newSession(user.id, tokenDigest, -10_000, { idle: 100 })
      const boundary = newSession(user.id, tokenDigest, -5_000, { idle: 5_000, max: 9_000 })
      const live = newSession(user.id, tokenDigest, -5_000, { idle: 5_001, max: 9_000 })
      for (const s of [expired, boundary, live]) await store.createSession(s)
      expect(await store.deleteExpiredSessions(at(0))).toBeGreaterThanOrEqual(2)
      expect(await store.findSession(expired.digest)).toBeNull()
      expect(await store.findSession(boundary.digest)).toBeNull()
      expect(await store.findSession(live.digest)).not.toBeNull()
    })

    it('rotates: the new token replaces every old one and the user’s sessions end', async () => {
      const { store } = h()
      const { user, tokenDigest } = await seedUser(store)
      const second = uniqueHash()
      await store.addUserToken(user.id, second, at(1))
      const other = await seedUser(store)
      const mine = [newSession(user.id, tokenDigest, 0), newSession(user.id, second, 0)]
      const theirs = newSession(other.user.id, other.tokenDigest, 0)
      for (const s of [...mine, theirs]) await store.createSession(s)
      const fresh = uniqueHash()
      expect(await store.rotateUserToken(user.id, fresh, at(5))).toBe(2)
      expect(await store.findUserByTokenDigest(tokenDigest)).toBeNull()
      expect(await store.findUserByTokenDigest(second)).toBeNull()
      expect(await store.findUserByTokenDigest(fresh)).toEqual(user)
      for (const s of mine) expect(await store.findSession(s.digest)).toBeNull()
      expect(await store.findSession(theirs.digest)).not.toBeNull()
      // A sign-in that looked the old token up before the rotation cannot store its session.
      expect(await store.createSession(newSession(user.id, tokenDigest, 6))).toBeNull()
      expect(await store.createSession(newSession(user.id, fresh, 6))).not.toBeNull()
    })
  })
}
