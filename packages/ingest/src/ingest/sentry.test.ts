import { describe, expect, it, vi } from 'vitest'
import type { EngineRequest } from '../http'
import type { CredentialRecord, WriteOp, WriteResult } from '../ports'
import { createSentryIngest, type SentryIngestDeps, sentryKeyOf } from './sentry'

const auth = (key: string) => `Sentry sentry_version=7, sentry_client=test/1.0, sentry_key=${key}`
const DSN = 'https://dsnkey@tis.test/7'

describe('sentryKeyOf', () => {
  it.each([
    ['X-Sentry-Auth', { headers: { 'x-sentry-auth': auth('a') } }, DSN, 'a'],
    ['Authorization with the Sentry scheme', { headers: { authorization: auth('b') } }, DSN, 'b'],
    ['the sentry_key query', { headers: {}, query: { sentry_key: 'c' } }, DSN, 'c'],
    [
      'X-Sentry-Auth before the query',
      { headers: { 'x-sentry-auth': auth('a') }, query: { sentry_key: 'c' } },
      DSN,
      'a',
    ],
    ['the query before the dsn', { headers: {}, query: { sentry_key: 'c' } }, DSN, 'c'],
    ['the dsn of the envelope header', { headers: {} }, DSN, 'dsnkey'],
    ['a dsn with a secret', { headers: {} }, 'http://pub:secret@h:9000/1', 'pub'],
    ['a dsn without a key', { headers: {} }, 'https://tis.test/7', undefined],
    ['a dsn that is not a string', { headers: {} }, 7, undefined],
    [
      'none: the caller uses the Bearer token',
      { headers: { authorization: 'Bearer tis_x' } },
      undefined,
      undefined,
    ],
  ] satisfies Array<[string, EngineRequest, unknown, string | undefined]>)(
    '%s',
    (_rule, request, dsn, key) => {
      expect(sentryKeyOf(request, dsn)).toBe(key)
    },
  )
})

const credential = { id: 'k', projectId: 'p', projectNumber: 7 } as CredentialRecord
const bytes = (lines: object[]) =>
  new TextEncoder().encode(lines.map((l) => JSON.stringify(l)).join('\n'))
const event = (n: number) => ({ event_id: String(n).padStart(32, '0'), message: `m${n}` })

function harness() {
  const seen: Array<EngineRequest['headers']> = []
  const counts: number[] = []
  const result = (op: WriteOp): WriteResult => ({ id: op.id, legacyId: 1 })
  const deps = {
    admit: async (_endpoint, request, _at, count) => {
      seen.push(request.headers)
      counts.push(count ?? 1)
      return {
        credential,
        rate: {
          allowed: true,
          limit: 9,
          remaining: 8,
          reset: 0,
          retryAfter: 1,
          windowSeconds: 60,
          count: 1,
        },
      }
    },
    now: () => new Date('2026-11-27T00:00:00Z'),
    maxBodyBytes: 1_000_000,
    serviceEnvironment: 'production',
    buildEvent: (e) => ({ type: 'event', id: e.event_id, projectId: 'p' }) as unknown as WriteOp,
    buildCheckIn: (c) =>
      ({ type: 'check_in', id: c.check_in_id, projectId: 'p' }) as unknown as WriteOp,
    write: vi.fn(async (ops: readonly WriteOp[]) => ops.map(result)),
    writeRecord: vi.fn(async (op: WriteOp) => result(op)),
  } satisfies SentryIngestDeps
  return { deps, seen, counts, ingest: createSentryIngest(deps) }
}

describe('createSentryIngest', () => {
  it('authenticates with the key of the parsed envelope header dsn, even when an item is malformed', async () => {
    const { ingest, seen } = harness()
    const body = new TextEncoder().encode(`{"dsn":"${DSN}"}\n{"type":"event","length":99}\n{}`)
    const answer = await ingest({ headers: {}, params: { project: '7' }, bytes: body }, 'envelope')
    expect(answer.status).toBe(400)
    expect(seen).toEqual([{ authorization: 'Bearer dsnkey' }])
  })

  it("falls back to the request's own credential headers without a Sentry key", async () => {
    const { ingest, seen } = harness()
    const request = {
      headers: { 'x-api-key': 'tis_k' },
      params: { project: '7' },
      bytes: bytes([{}, { type: 'event' }, event(1)]),
    }
    expect((await ingest(request, 'envelope')).status).toBe(200)
    expect(seen).toEqual([{ 'x-api-key': 'tis_k' }])
  })

  it("writes an envelope's one record in the shared batch, several records as one all-or-nothing group", async () => {
    const { ingest, deps } = harness()
    const headers = { 'x-sentry-auth': auth('a') }
    const one = bytes([{ event_id: event(1).event_id }, { type: 'event' }, event(1)])
    const answer = await ingest({ headers, params: { project: '7' }, bytes: one }, 'envelope')
    expect(answer).toMatchObject({ status: 200, body: { id: event(1).event_id } })
    expect(deps.writeRecord).toHaveBeenCalledTimes(1)
    expect(deps.write).not.toHaveBeenCalled()
    const two = bytes([{}, { type: 'event' }, event(2), { type: 'event' }, event(3)])
    await ingest({ headers, params: { project: '7' }, bytes: two }, 'envelope')
    expect(deps.write).toHaveBeenCalledTimes(1)
    expect(deps.write.mock.calls[0]?.[0]).toHaveLength(2)
    expect(deps.writeRecord).toHaveBeenCalledTimes(1)
  })

  it('counts each stored item once against the rate limit: a transaction with its spans is one, a session one', async () => {
    const { ingest, counts } = harness()
    const headers = { 'x-sentry-auth': auth('a') }
    const now = 1_795_700_000
    const span = (id: string) => ({
      span_id: id,
      parent_span_id: 'a'.repeat(16),
      trace_id: 'b'.repeat(32),
      op: 'http.client',
      start_timestamp: now,
      timestamp: now + 0.1,
    })
    const transaction = {
      type: 'transaction',
      event_id: 'c'.repeat(32),
      transaction: '/checkout',
      start_timestamp: now,
      timestamp: now + 1,
      contexts: { trace: { trace_id: 'b'.repeat(32), span_id: 'a'.repeat(16), op: 'pageload' } },
      spans: Array.from({ length: 20 }, (_, i) => span(String(i).padStart(16, '1'))),
    }
    const pageLoad = bytes([{}, { type: 'transaction' }, transaction, { type: 'session' }, {}])
    expect(
      (await ingest({ headers, params: { project: '7' }, bytes: pageLoad }, 'envelope')).status,
    ).toBe(200)
    const events = bytes([{}, { type: 'event' }, event(4), { type: 'event' }, event(5)])
    await ingest({ headers, params: { project: '7' }, bytes: events }, 'envelope')
    const sessions = bytes([{}, { type: 'session' }, {}, { type: 'client_report' }, {}])
    await ingest({ headers, params: { project: '7' }, bytes: sessions }, 'envelope')
    // The page load: its transaction and its session (a malformed one counts all the same).
    expect(counts).toEqual([2, 2, 1])
  })
})
