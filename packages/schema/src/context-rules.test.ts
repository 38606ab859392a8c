import { describe, expect, it } from 'vitest'
import { parseEventEnvelope } from './event'
import { acceptedValue, errorsOf } from './test-results'

const T0 = '2026-01-01T00:00:00Z'
const label = (type: string) => (type === 'span' ? { name: 's' } : { message: 'm' })
const parse = (type: string, context: object, top: object = {}) =>
  parseEventEnvelope({
    event: {
      event_type: type,
      ...label(type),
      ...(type === 'check_in' ? { check_in_slug: 'job' } : {}),
      ...top,
      context,
    },
  })

// One row per rule of docs/validation.md ("Which context properties are validated"): a context
// property is validated where the spec makes it one, and is user context, kept as sent, elsewhere.
describe('context properties validated where the spec makes them one', () => {
  const kept: Array<[string, string, object, object?]> = [
    ['an unknown kind on a log', 'log', { kind: 'client' }],
    ['a started_at that is no date on a log', 'log', { started_at: 'yesterday' }],
    ['span fields on an error', 'error', { span_id: 1, parent_span_id: [], ended_at: 'later' }],
    ['a camelCase span field on a log, under its own name', 'log', { startedAt: 'yesterday' }],
    ['check-in fields on a log', 'log', { check_in_slug: 5, expected_interval_seconds: 0 }],
    ['check-in fields on a span', 'span', { check_in_status: { a: 1 } }],
    ['monitor_slug on a metric, not renamed', 'metric', { monitor_slug: 7 }],
    ['status, method and url on a log', 'log', { status: [1], method: 5, url: {} }],
    [
      'method and url on an error (its request is in context.request)',
      'error',
      { method: 5, url: 6 },
    ],
    [
      "a span's context.started_at when the top level sets started_at",
      'span',
      { started_at: 'yesterday' },
      { started_at: T0 },
    ],
    [
      "a span's context.kind when the top level sets kind (the Python client's kind=db, context.kind=client)",
      'span',
      { kind: 'client' },
      { kind: 'db' },
    ],
    [
      "a transaction's context.status when the top level sets status",
      'transaction',
      { status: { code: 500 } },
      { status: 500 },
    ],
  ]

  it.each(kept)('kept as sent: %s', (_rule, type, context, top = {}) => {
    expect(acceptedValue(parse(type, context, top)).context).toMatchObject(context)
  })

  const refused: Array<[string, string, object, string]> = [
    [
      'check_in_slug on a check_in event',
      'check_in',
      { check_in_slug: 5 },
      'context.check_in_slug must be a string',
    ],
    [
      'expected_interval_seconds on a check_in event',
      'check_in',
      { expected_interval_seconds: 0 },
      'context.expected_interval_seconds must be greater than or equal to 1',
    ],
    [
      'context.started_at of a span without a top-level one',
      'span',
      { started_at: 'yesterday' },
      'context.started_at must be an RFC 3339 date-time (for example 2026-01-31T12:00:00Z)',
    ],
    [
      'context.kind of a span without a top-level one',
      'span',
      { kind: 5 },
      'context.kind must be a string',
    ],
    [
      'context.span_id of a span without a top-level one',
      'span',
      { span_id: 5 },
      'context.span_id must be a string',
    ],
    [
      'context.status of a transaction without a top-level one',
      'transaction',
      { status: [500] },
      'context.status must be a string or an integer',
    ],
    ['context.method of a span', 'span', { method: 5 }, 'context.method must be a string'],
    ['context.url of a transaction', 'transaction', { url: 5 }, 'context.url must be a string'],
    // Section 2.2's properties are validated on every event type.
    [
      'commit_sha ("HEAD") on a log: section 8 bounds it',
      'log',
      { commit_sha: 'HEAD' },
      'context.commit_sha is invalid (must be 7 to 40 hexadecimal characters)',
    ],
    [
      'a tag that is not a string on a log',
      'log',
      { tags: { attempt: 1 } },
      'context.tags.attempt must be a string',
    ],
    [
      'duration_ms below 0 on a span',
      'span',
      { duration_ms: -1 },
      'context.duration_ms must be greater than or equal to 0',
    ],
    [
      'value that is not a number on a metric',
      'metric',
      { value: '3' },
      'context.value must be a number',
    ],
    [
      'trace_id that is not a string on an error',
      'error',
      { trace_id: 1 },
      'context.trace_id must be a string',
    ],
  ]

  it.each(refused)('422: %s', (_rule, type, context, error) => {
    expect(errorsOf(parse(type, context))).toEqual([error])
  })

  it('renames camelCase span fields on a span, where they are documented', () => {
    const event = acceptedValue(parse('span', { spanId: 'a', startedAt: T0 }))
    expect(event.context).toMatchObject({ span_id: 'a', started_at: T0 })
    expect(event.context).not.toHaveProperty('spanId')
  })

  it("a span's started_at and ended_at may come from context, and are then compared", () => {
    expect(errorsOf(parse('span', { started_at: T0, ended_at: '2025-12-31T23:59:59Z' }))).toEqual([
      'context.ended_at must not be before started_at',
    ])
    expect(acceptedValue(parse('span', { started_at: T0 })).occurred_at).toBe(T0)
  })
})
