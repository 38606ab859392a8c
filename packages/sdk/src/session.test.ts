import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { uniqueBase, useMsw } from '../test/msw'
import { createClient } from './client'
import type { ClientOptions } from './options'

const { serve } = useMsw()
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
const T0 = Date.parse('2026-11-22T10:00:00.000Z')

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
  vi.setSystemTime(T0)
})
afterEach(() => {
  vi.useRealTimers()
})

function setup(extra: Partial<ClientOptions> = {}) {
  const baseUrl = uniqueBase()
  const seen = serve(baseUrl)
  const apiKey = `tis_${Math.random().toString(16).slice(2)}`
  const client = createClient({
    baseUrl,
    apiKey,
    environment: 'test',
    release: '1.2.3',
    autoFlush: false,
    ...extra,
  })
  const sessions = () => seen.filter((s) => s.path === '/api/v1/sessions').map((s) => s.body)
  return { client, seen, sessions, apiKey }
}

describe('the process session', () => {
  it('an untouched session is sent once, at close: init and exited in one update', async () => {
    const { client, seen, sessions, apiKey } = setup()
    await client.flush()
    expect(seen).toHaveLength(0)
    vi.setSystemTime(T0 + 2500)
    await client.close()
    expect(seen).toHaveLength(1)
    expect(seen[0]!.headers.get('authorization')).toBe(`Bearer ${apiKey}`)
    expect(seen[0]!.headers.get('content-type')).toBe('application/json')
    expect(sessions()).toEqual([
      {
        session: {
          sid: expect.stringMatching(UUID),
          seq: T0 + 2500,
          init: true,
          started: '2026-11-22T10:00:00.000Z',
          timestamp: '2026-11-22T10:00:02.500Z',
          duration: 2.5,
          status: 'exited',
          errors: 0,
          attrs: { release: '1.2.3', environment: 'test' },
        },
      },
    ])
  })

  it('handled errors: the first update (init) follows within a second, later ones only on change', async () => {
    const { client, sessions } = setup()
    client.captureException(new Error('a'))
    client.captureException(new Error('b'))
    await vi.advanceTimersByTimeAsync(999)
    expect(sessions()).toHaveLength(0)
    await vi.advanceTimersByTimeAsync(1)
    await client.flush()
    expect(sessions().map((b) => b.session)).toEqual([
      expect.objectContaining({ init: true, status: 'ok', errors: 2 }),
    ])
    // Nothing changed: neither a flush nor time sends another update.
    await client.flush()
    await vi.advanceTimersByTimeAsync(5000)
    expect(sessions()).toHaveLength(1)
    client.captureException(new Error('c'))
    await vi.advanceTimersByTimeAsync(1000)
    client.captureException(new Error('d'))
    // The final update carries the pending change too: one request, not two.
    await client.close()
    const [first, second, last] = sessions().map((b) => b.session)
    expect(second).toMatchObject({ init: false, status: 'ok', errors: 3, sid: first.sid })
    expect(last).toMatchObject({ init: false, status: 'exited', errors: 4, sid: first.sid })
    expect(sessions()).toHaveLength(3)
  })

  it('a flush sends a pending update at once, and the debounce then sends nothing more', async () => {
    const { client, sessions } = setup()
    client.captureException(new Error('a'))
    await client.flush()
    expect(sessions().map((b) => b.session)).toEqual([
      expect.objectContaining({ init: true, errors: 1 }),
    ])
    await vi.advanceTimersByTimeAsync(2000)
    await client.flush()
    expect(sessions()).toHaveLength(1)
  })

  it('a terminal status is final: crashed is sent once, nothing after it', async () => {
    const { client, sessions } = setup()
    client.endSession('crashed')
    client.captureException(new Error('after'))
    await vi.advanceTimersByTimeAsync(2000)
    await client.close()
    expect(sessions().map((b) => b.session)).toEqual([
      expect.objectContaining({ init: true, status: 'crashed', errors: 0 }),
    ])
  })

  it('endSession(false) drops the session unsent', async () => {
    const { client, sessions } = setup()
    client.endSession(false)
    client.captureException(new Error('in request mode'))
    await vi.advanceTimersByTimeAsync(2000)
    await client.close()
    expect(sessions()).toHaveLength(0)
  })

  it('the exit hook (beforeExit) ends the session as exited', async () => {
    const { client, sessions } = setup({ autoFlush: true })
    process.emit('beforeExit', 0)
    await client.flush()
    expect(sessions().map((b) => b.session)).toEqual([
      expect.objectContaining({ init: true, status: 'exited' }),
    ])
    await client.close()
    expect(sessions()).toHaveLength(1)
  })
})

it('a transport that throws costs the update, never the host', async () => {
  const client = createClient({
    baseUrl: 'https://unused.test',
    apiKey: 'k',
    release: '1.2.3',
    autoFlush: false,
    transport: {
      send: () => {
        throw new Error('broken transport')
      },
      flush: async () => ({ sent: 0, duplicates: 0, dropped: {}, pending: 0 }),
    },
  })
  client.captureException(new Error('x'))
  await vi.advanceTimersByTimeAsync(2000)
  client.startSession()
  client.captureSessions([{ started: '2026-11-22T10:00:00.000Z', exited: 1 }])
  // The event; the process session's update and its end; the new session's init and end; the aggregate.
  expect((await client.close()).dropped).toEqual({ internal_error: 6 })
})

describe('sessions are sent only with a release', () => {
  it.each([
    ['no release', { release: undefined }],
    ['sessions: false', { sessions: false }],
  ])('%s: nothing goes to /sessions', async (_rule, extra) => {
    const { client, seen, sessions } = setup(extra as Partial<ClientOptions>)
    client.captureException(new Error('x'))
    client.startSession({ userId: 1 })
    client.captureSessions([{ started: '2026-11-22T10:00:00.000Z', exited: 1 }])
    await vi.advanceTimersByTimeAsync(2000)
    await client.close()
    expect(sessions()).toHaveLength(0)
    expect(seen.map((s) => s.path)).toEqual(['/api/v1/ingest_events'])
  })
})

describe('startSession and captureSessions', () => {
  it('startSession sends its init at once with the user as did, and ends the previous one', async () => {
    const { client, sessions } = setup()
    // Without this, the first startSession would end the process session (sent as exited).
    client.endSession(false)
    client.startSession({ userId: 42 })
    vi.setSystemTime(T0 + 1000)
    client.startSession()
    await client.flush()
    const [first, ended, second] = sessions().map((b) => b.session)
    expect(first).toMatchObject({ did: '42', init: true, status: 'ok', errors: 0 })
    expect(ended).toMatchObject({ sid: first.sid, did: '42', init: false, status: 'exited' })
    expect(second).toMatchObject({ init: true, status: 'ok' })
    expect(second.sid).not.toBe(first.sid)
    expect(second).not.toHaveProperty('did')
    expect(sessions()).toHaveLength(3)
  })

  it('captureSessions sends one aggregate body with the attrs', async () => {
    const { client, sessions } = setup()
    client.endSession(false)
    const aggregates = [
      { started: '2026-11-22T10:00:00.000Z', exited: 3, errored: 1 },
      { started: '2026-11-22T10:01:00.000Z', did: 'u1', crashed: 1 },
    ]
    client.captureSessions(aggregates)
    await client.flush()
    expect(sessions()).toEqual([
      { sessions: { aggregates, attrs: { release: '1.2.3', environment: 'test' } } },
    ])
  })

  it('captureSessions splits more than 100 buckets over several bodies, none cut', async () => {
    const { client, sessions } = setup()
    client.endSession(false)
    const aggregates = Array.from({ length: 150 }, (_, i) => ({
      started: '2026-11-22T10:00:00.000Z',
      did: `u${i}`,
      exited: 1,
    }))
    client.captureSessions(aggregates)
    await client.flush()
    expect(sessions().map((b) => b.sessions.aggregates.length)).toEqual([100, 50])
    expect(sessions().flatMap((b) => b.sessions.aggregates)).toEqual(aggregates)
  })
})
