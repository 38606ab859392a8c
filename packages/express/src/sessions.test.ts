import type { Client, SessionAggregate } from '@tis/sdk'
import { afterEach, beforeEach, expect, it, vi } from 'vitest'
import { requestSessions } from './sessions'

const T0 = Date.parse('2026-11-22T10:00:30.000Z')

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
  vi.setSystemTime(T0)
})
afterEach(() => {
  vi.useRealTimers()
})

function fakeClient() {
  const sent: (readonly SessionAggregate[])[] = []
  const client = {
    endSession: vi.fn(),
    captureSessions: (aggregates: readonly SessionAggregate[]) => sent.push(aggregates),
    captureException: () => 'id',
    flush: async () => ({ sent: 0, duplicates: 0, dropped: {}, pending: 0 }),
    close: async () => ({ sent: 0, duplicates: 0, dropped: {}, pending: 0 }),
  } as unknown as Client
  return { client, sent }
}

it('drops the process session unsent: request mode has none', () => {
  const { client } = fakeClient()
  requestSessions(client)
  expect(client.endSession).toHaveBeenCalledWith(false)
})

it('buckets requests by minute and user, and sends them all 60 s after the first', async () => {
  const { client, sent } = fakeClient()
  const count = requestSessions(client)
  count('exited')
  count('errored', 'u1')
  count('exited', 'u1')
  await vi.advanceTimersByTimeAsync(40_000) // 10:01:10
  count('crashed')
  await vi.advanceTimersByTimeAsync(19_999)
  expect(sent).toHaveLength(0)
  await vi.advanceTimersByTimeAsync(1)
  expect(sent).toEqual([
    [
      { started: '2026-11-22T10:00:00.000Z', did: undefined, exited: 1 },
      { started: '2026-11-22T10:00:00.000Z', did: 'u1', errored: 1, exited: 1 },
      { started: '2026-11-22T10:01:00.000Z', did: undefined, crashed: 1 },
    ],
  ])
  // Nothing counted since: no timer, no body.
  await vi.advanceTimersByTimeAsync(120_000)
  await client.flush()
  expect(sent).toHaveLength(1)
})

it('flush() and close() send the pending counts at once, once', async () => {
  const { client, sent } = fakeClient()
  const count = requestSessions(client)
  count('exited')
  await client.flush()
  expect(sent).toEqual([[{ started: '2026-11-22T10:00:00.000Z', did: undefined, exited: 1 }]])
  count('crashed')
  await client.close()
  await vi.advanceTimersByTimeAsync(60_000)
  expect(sent).toHaveLength(2)
  expect(sent[1]).toEqual([{ started: '2026-11-22T10:00:00.000Z', did: undefined, crashed: 1 }])
})
