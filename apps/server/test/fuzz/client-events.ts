import fc from 'fast-check'
import { MARK } from './values'

// Always-valid events and check-ins in the shapes Logister's clients send (issue 17): the fuzz
// oracle asserts every one of them is accepted, so these encode the rules that turned 422s into
// 201s — check-in fields in context, span kinds outside the list, user context that looks like a
// span or check-in field, strings over their limit, checked_at, nested trace ids and statuses.

const smallId = fc.stringMatching(/^[a-z0-9]{1,12}$/)
const date = fc.constantFrom('2026-01-31T12:00:00Z', '2026-01-31t12:00:00.5+14:00')
/** Strings over a 1,024-character limit (the longest is 32 KB of UTF-8, under the body cap). */
const overLimit = (lengths: readonly number[]) =>
  fc
    .tuple(fc.constantFrom(...lengths), fc.constantFrom('x', 'é', '😀'))
    .map(([n, c]) => c.repeat(n))
/** Any kind a client may send: listed or not, in any case; always a string. */
const anyKind = fc.oneof(
  fc.constantFrom('job', 'graphql', 'client', 'producer', 'consumer', 'DB', 'Server', 'http'),
  fc.string({ maxLength: 20 }),
)
/** What a user may keep in context under a name that is a span or check-in field elsewhere. */
const junk = fc.oneof(
  fc.constantFrom('yesterday', 'client', 0, -1, 1.5, true, null),
  fc.jsonValue({ maxDepth: 2 }),
)
const userContext = fc.record(
  {
    kind: junk,
    started_at: junk,
    ended_at: junk,
    span_id: junk,
    check_in_slug: junk,
    expected_interval_seconds: junk,
    startedAt: junk,
    clientIp: fc.constant('10.0.0.1'),
    request: fc.record({ httpMethod: fc.constant('GET'), requestId: smallId, trace_id: smallId }),
    trace: fc.record({ traceId: smallId, spanId: smallId }),
    http: fc.record({ status_code: fc.integer({ min: 100, max: 599 }) }),
    note: fc.constant(MARK),
  },
  { requiredKeys: ['note'] },
)
/** At most one known field over its limit, so the body stays under the cap. */
const longFields = fc.option(
  fc
    .tuple(
      fc.constantFrom('level', 'fingerprint', 'transaction_name', 'environment'),
      overLimit([1_025, 2_000, 8_000]),
    )
    .map(([field, value]) => ({ [field]: value })),
  { nil: {} },
)

/** A log, error, metric or transaction with user context that a span or check-in would validate. */
const plainEvent = fc
  .tuple(fc.constantFrom('log', 'error', 'metric', 'transaction'), userContext, longFields)
  .map(([event_type, context, long]) => {
    // status/method/url are validated on transactions: leave them out of their user context.
    return { event_type, message: `${MARK} ${event_type}`, ...long, context }
  })

/** A span whose kind may be anything, sent at the top level, in context, or both. */
const span = fc
  .tuple(anyKind, fc.constantFrom('top', 'context', 'both'), smallId, date, userContext)
  .map(([kind, where, id, startedAt, user]) => {
    const { kind: _k, started_at: _s, ended_at: _e, span_id: _i, ...context } = user
    return {
      event_type: 'span',
      name: `span ${MARK}`,
      trace_id: `fz-${id}`,
      span_id: id,
      started_at: startedAt,
      ...(where === 'context' ? {} : { kind }),
      status: 'error',
      level: 'error',
      context: { ...context, ...(where === 'top' ? {} : { kind }), started_at: 'yesterday' },
    }
  })

/** A check_in event with its fields in context (the Ruby client's shape), `checked_at` maybe. */
const checkInEvent = fc
  .tuple(smallId, fc.integer({ min: 1, max: 86_400 }), fc.boolean(), date)
  .map(([slug, interval, checkedAt, at]) => ({
    event_type: 'check_in',
    message: `${MARK} ${slug} ok`,
    ...(checkedAt ? { checked_at: at } : {}),
    context: {
      check_in_slug: slug,
      check_in_status: 'ok',
      expected_interval_seconds: interval,
      duration_ms: 5,
    },
  }))

/** An event body every rule of issue 17 says is accepted. */
export const clientEvent: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  plainEvent,
  span,
  checkInEvent,
)

/** A compact check-in as logister-js sends it: `checked_at`, and maybe long strings. */
export const clientCheckIn: fc.Arbitrary<Record<string, unknown>> = fc
  .tuple(smallId, date, fc.option(overLimit([1_025, 2_000]), { nil: undefined }))
  .map(([slug, checkedAt, long]) => ({
    slug: long === undefined ? slug : `${slug}${long}`,
    status: 'ok',
    checked_at: checkedAt,
    ...(long === undefined ? {} : { release: long, trace_id: long }),
    context: { note: MARK },
  }))
