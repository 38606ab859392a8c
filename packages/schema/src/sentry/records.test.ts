import { describe, expect, it } from 'vitest'
import { parseCheckInEnvelope } from '../check-in'
import { parseEventEnvelope } from '../event'
import { intervalOfSchedule } from './check-in'
import { sentryEnvelopeRecords, sentryStoreRecords } from './records'
import { spanKindOfOp } from './transaction'

const encoder = new TextEncoder()

/** An envelope of `[header, payload]` items, payloads with a `length` as SDKs send them. */
function envelope(header: object, items: Array<[object, string]>): Uint8Array {
  const lines = [JSON.stringify(header)]
  for (const [h, payload] of items) {
    lines.push(JSON.stringify({ ...h, length: encoder.encode(payload).length }), payload)
  }
  return encoder.encode(lines.join('\n'))
}

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736'
const TRANSACTION = {
  type: 'transaction',
  transaction: 'GET /orders/:id',
  start_timestamp: 1764165600,
  timestamp: 1764165600.25,
  contexts: {
    trace: {
      trace_id: TRACE,
      span_id: 'a000000000000001',
      op: 'http.server',
      status: 'ok',
      data: { 'http.response.status_code': 200 },
    },
  },
  spans: [
    {
      trace_id: TRACE,
      span_id: 'b000000000000002',
      parent_span_id: 'a000000000000001',
      op: 'db.query',
      description: 'select * from orders',
      start_timestamp: 1764165600.01,
      timestamp: 1764165600.05,
    },
    {
      trace_id: TRACE,
      span_id: 'c000000000000003',
      parent_span_id: 'a000000000000001',
      op: 'http.client',
      description: 'GET https://pay.test',
      start_timestamp: 1764165600.06,
      timestamp: 1764165600.2,
    },
  ],
  environment: 'production',
  release: 'shop@1.4.2',
}

describe('sentryEnvelopeRecords', () => {
  it('maps every stored item and counts the others', () => {
    const body = envelope(
      { event_id: '9ec79c33ec9942ab8353589fcb2e04dc', sent_at: '2026-11-26T14:00:00Z' },
      [
        [{ type: 'event' }, JSON.stringify({ message: 'hello', level: 'warning' })],
        [{ type: 'transaction' }, JSON.stringify(TRANSACTION)],
        [
          { type: 'check_in' },
          JSON.stringify({
            check_in_id: 'c'.repeat(32),
            monitor_slug: 'nightly',
            status: 'ok',
            duration: 1.5,
            environment: 'production',
            monitor_config: { schedule: { type: 'interval', value: 5, unit: 'minute' } },
          }),
        ],
        [
          { type: 'log', item_count: 2, content_type: 'application/vnd.sentry.items.log+json' },
          JSON.stringify({
            items: [
              {
                timestamp: 1764165600.5,
                level: 'warn',
                body: 'slow query',
                trace_id: TRACE,
                attributes: {
                  'sentry.environment': { value: 'production', type: 'string' },
                  rows: { value: 12, type: 'integer' },
                },
              },
              { timestamp: 1764165601, level: 'trace', body: 'tick' },
            ],
          }),
        ],
        [{ type: 'session' }, '{"sid":"s"}'],
        [{ type: 'client_report' }, '{}'],
        [{ type: 'client_report' }, '{}'],
        [{ type: 'something_new' }, 'not even json'],
      ],
    )
    const result = sentryEnvelopeRecords(body)
    if (!result.ok) throw new Error(result.message)
    expect(result.ignored).toEqual({ client_report: 2, something_new: 1 })
    // A session without a release is dropped, not failing the envelope (counted all the same).
    expect(result.dropped).toEqual([
      expect.stringMatching(/^item 5 \(session\): session\.attrs must be an object with a release/),
    ])
    // Event, transaction (with its spans), check-in, log item and the session: five items.
    expect(result.storedItems).toBe(5)
    expect(result.eventId).toBe('9ec79c33ec9942ab8353589fcb2e04dc')
    const now = new Date('2026-11-26T14:00:00Z')
    const parsed = result.records.map((r) => {
      if (r.kind === 'session') throw new Error('a malformed session became a record')
      const p =
        r.kind === 'event'
          ? parseEventEnvelope(r.envelope, { now })
          : parseCheckInEnvelope(r.envelope, { now })
      if (!p.ok) throw new Error(JSON.stringify(p))
      return p.value as Record<string, unknown>
    })
    expect(parsed.map((p) => p['event_type'] ?? 'check_in')).toEqual([
      'error',
      'transaction',
      'span',
      'span',
      'span',
      'check_in',
      'log',
      'log',
    ])
    // The event took the envelope's id.
    expect(parsed[0]).toMatchObject({
      event_id: '9ec79c33-ec99-42ab-8353-589fcb2e04dc',
      message: 'hello',
      level: 'warning',
    })
    expect(parsed[1]).toMatchObject({
      transaction_name: 'GET /orders/:id',
      duration_ms: 250,
      status: 200,
      trace_id: TRACE,
      span_id: 'a000000000000001',
      occurred_at: '2025-11-26T14:00:00.000Z',
    })
    expect(
      parsed
        .slice(2, 5)
        .map((s) => [
          s['span_id'],
          s['parent_span_id'] ?? null,
          s['kind'],
          s['name'],
          s['duration_ms'],
        ]),
    ).toEqual([
      ['a000000000000001', null, 'server', 'GET /orders/:id', 250],
      ['b000000000000002', 'a000000000000001', 'db', 'select * from orders', 40],
      ['c000000000000003', 'a000000000000001', 'http', 'GET https://pay.test', 140],
    ])
    expect(parsed[5]).toMatchObject({
      slug: 'nightly',
      status: 'ok',
      duration_ms: 1500,
      expected_interval_seconds: 300,
      environment: 'production',
    })
    expect(parsed[6]).toMatchObject({
      message: 'slow query',
      level: 'warn',
      trace_id: TRACE,
      environment: 'production',
      occurred_at: '2025-11-26T14:00:00.500Z',
    })
    expect((parsed[6]!['context'] as Record<string, unknown>)['attributes']).toEqual({
      'sentry.environment': 'production',
      rows: 12,
    })
    expect(parsed[7]).toMatchObject({ message: 'tick', level: 'debug' })
  })

  it('returns the envelope header, so that its dsn can name the key of a tunnelled envelope', () => {
    const header = { event_id: 'c'.repeat(32), dsn: 'https://k@h/1' }
    const result = sentryEnvelopeRecords(envelope(header, [[{ type: 'session' }, '{}']]))
    expect(result).toMatchObject({ ok: true, header, eventId: 'c'.repeat(32) })
  })

  it('refuses a stored item whose payload is not a JSON object, and a malformed envelope', () => {
    expect(sentryEnvelopeRecords(envelope({}, [[{ type: 'event' }, '[1]']]))).toEqual({
      ok: false,
      message: 'item 1 (event): its payload is not a JSON object',
      header: {},
    })
    expect(
      sentryEnvelopeRecords(encoder.encode('{}\n{"type":"event","length":99}\n{}')),
    ).toMatchObject({ ok: false })
  })

  it('reads the older store endpoint: one event or transaction as JSON', () => {
    const one = sentryStoreRecords(
      encoder.encode(JSON.stringify({ event_id: 'b'.repeat(32), message: 'm' })),
    )
    expect(one).toMatchObject({ ok: true, eventId: 'b'.repeat(32), records: [{ kind: 'event' }] })
    const tx = sentryStoreRecords(encoder.encode(JSON.stringify(TRANSACTION)))
    expect(tx.ok && tx.records.length).toBe(4)
    expect(tx.ok && tx.storedItems).toBe(1)
    expect(sentryStoreRecords(encoder.encode('nope'))).toEqual({
      ok: false,
      message: 'the body is not a JSON object (a Sentry event)',
    })
  })
})

describe('intervalOfSchedule', () => {
  it.each([
    [{ type: 'interval', value: 5, unit: 'minute' }, 300],
    [{ type: 'interval', value: 2, unit: 'hours' }, 7200],
    [{ type: 'crontab', value: '*/10 * * * *' }, 600],
    [{ type: 'crontab', value: '* * * * *' }, 60],
    [{ type: 'crontab', value: '15 * * * *' }, 3600],
    [{ type: 'crontab', value: '0 3 * * *' }, 86400],
    [{ type: 'crontab', value: '0 3 * * 1' }, 604800],
    [{ type: 'crontab', value: '0 3 1 * *' }, undefined],
    [{ type: 'interval', value: -1, unit: 'minute' }, undefined],
    ['nope', undefined],
  ])('%j → %s', (schedule, seconds) => {
    expect(intervalOfSchedule(schedule)).toBe(seconds)
  })
})

describe('spanKindOfOp', () => {
  it.each([
    ['http.server', true, 'server'],
    ['pageload', true, 'browser'],
    ['db.sql.query', false, 'db'],
    ['http.client', false, 'http'],
    ['cache.get', false, 'cache'],
    ['queue.publish', false, 'queue'],
    ['resource.script', false, 'resource'],
    ['ui.react.render', false, 'render'],
    ['function', false, 'internal'],
    [undefined, true, 'server'],
  ] as const)('%s (root %s) → %s', (op, root, kind) => {
    expect(spanKindOfOp(op, root)).toBe(kind)
  })
})
