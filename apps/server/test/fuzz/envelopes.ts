import fc from 'fast-check'
import { DATES, MARK, NUMBERS, uuid } from './values'

/** A few event ids shared by every generator, so repeats (200 duplicates) and clashes happen. */
export const SHARED_IDS = [
  '0190b1c2-3d4e-7f80-9a1b-2c3d4e5f6071',
  '0190b1c2-3d4e-7f80-9a1b-2c3d4e5f6072',
  '0190b1c2-3d4e-7f80-9a1b-2c3d4e5f6073',
] as const

const EVENT_TYPES = ['error', 'log', 'metric', 'transaction', 'span', 'check_in'] as const
const KINDS = [
  'app',
  'browser',
  'cache',
  'db',
  'http',
  'internal',
  'queue',
  'render',
  'resource',
  'server',
] as const
// fc.webUrl() is slow to generate (ms per value); a few fixed shapes are enough here.
const url = fc.constantFrom(
  'https://github.com/o/n/pull/1',
  'http://example.test/a?b=c#d',
  'https://example.test:8443/',
  'ftp://x.test/y',
)
const date = fc.constantFrom(...DATES.slice(0, 9))
const smallId = fc.stringMatching(/^[a-z0-9]{1,12}$/)
const eventId = fc.oneof(
  { weight: 3, arbitrary: uuid },
  { weight: 1, arbitrary: fc.constantFrom(...SHARED_IDS) },
)

/** Optional fields: each present about half the time. */
function optional<T extends Record<string, fc.Arbitrary<unknown>>>(fields: T) {
  return fc.record(fields, { requiredKeys: [] })
}

/** A valid `event` envelope body (before mutation), the marker in its message or name. */
export const validEvent: fc.Arbitrary<Record<string, unknown>> = fc
  .tuple(
    fc.constantFrom(...EVENT_TYPES),
    optional({
      event_id: eventId,
      level: fc.constantFrom('info', 'warn', 'error', 'fatal'),
      fingerprint: smallId,
      occurred_at: date,
      environment: fc.constantFrom('production', 'staging'),
      release: fc.constantFrom('v1', 'v2'),
      commit_sha: fc.constantFrom('a1b2c3d', 'ABCDEF0123456789abcdef0123456789abcdef01'),
      repository: fc.constantFrom('o/n', 'https://github.com/o/n.git'),
      // Mostly fresh trace ids, so no trace (and no event's related list) grows with the run.
      trace_id: fc.oneof(
        { weight: 1, arbitrary: fc.constant('fuzz-trace') },
        { weight: 49, arbitrary: smallId },
      ),
      request_id: smallId,
      session_id: smallId,
      user_id: fc.oneof(smallId, fc.integer()),
      transaction_name: fc.constantFrom('GET /', 'POST /x'),
      duration_ms: fc.oneof(fc.nat(), fc.double({ min: 0, max: 1e6, noNaN: true })),
      status: fc.oneof(fc.constantFrom(200, 404, 500), fc.constantFrom('ok', '502')),
      context: optional({
        value: fc.double({ noNaN: true, noDefaultInfinity: true }),
        tags: fc.dictionary(smallId, smallId, { maxKeys: 3 }),
        request: optional({ method: fc.constantFrom('GET', 'POST'), url: url }),
        exception: fc.jsonValue({ maxDepth: 2 }),
        note: fc.constant(MARK),
      }),
    }),
    fc.record({ span_id: smallId, parent_span_id: fc.option(smallId, { nil: undefined }) }),
    // Kinds outside the list are stored as internal (issue 17), so they are valid too.
    optional({
      kind: fc.constantFrom(...KINDS, 'job', 'graphql', 'client', 'DB'),
      started_at: date,
      ended_at: date,
    }),
    fc.record({ slug: smallId, interval: fc.integer({ min: 1, max: 86_400 }) }),
  )
  .map(([event_type, fields, span, spanTimes, check]) => {
    const event: Record<string, unknown> = {
      event_type,
      message: `${MARK} ${event_type}`,
      ...fields,
    }
    if (event_type === 'span') Object.assign(event, { name: `span ${MARK}`, ...span, ...spanTimes })
    if (event_type === 'check_in') {
      Object.assign(event, { check_in_slug: check.slug, expected_interval_seconds: check.interval })
    }
    return event
  })

/** A valid `check_in` envelope body. */
export const validCheckIn = fc
  .tuple(
    fc.stringMatching(/^[a-z0-9-]{1,16}$/),
    optional({
      event_id: eventId,
      status: fc.constantFrom('ok', 'error', 'in_progress'),
      occurred_at: date,
      checked_at: date,
      environment: fc.constantFrom('production', 'staging'),
      release: fc.constantFrom('v1', 'v2'),
      expected_interval_seconds: fc.oneof(
        fc.integer({ min: 1, max: 86_400 }),
        fc.constantFrom(...NUMBERS),
      ),
      duration_ms: fc.nat(),
      trace_id: smallId,
      request_id: smallId,
    }),
  )
  .map(([slug, fields]) => ({ slug, note: MARK, ...fields }) as Record<string, unknown>)

/** A valid `deployment` envelope body. */
export const validDeployment = optional({
  environment: fc.constantFrom('production', 'staging'),
  branch: fc.constantFrom('main', 'dev'),
  deployed_at: date,
  pull_request_number: fc.oneof(fc.nat(), fc.constant('42')),
  pull_request_url: url,
  release_url: url,
  release_tag: smallId,
  github: fc.jsonValue({ maxDepth: 2 }),
}).chain((fields) =>
  fc
    .record({
      release: smallId,
      repository: fc.constantFrom('o/n', 'acme/api', 'https://github.com/o/n.git'),
      commit_sha: fc.string({
        unit: fc.constantFrom(...'0123456789abcdefABCDEF'),
        minLength: 7,
        maxLength: 40,
      }),
    })
    .map((required) => ({ ...required, ...fields, note: MARK }) as Record<string, unknown>),
)

/** A valid `mobile_ingest_token` envelope body for the fuzzed (Android) project. */
export const validMobileToken = optional({
  release: fc.constantFrom('1.0.0', MARK),
  session_id: smallId,
  expires_in_seconds: fc.oneof(fc.integer({ min: 60, max: 3600 }), fc.constantFrom(...NUMBERS)),
  allowed_event_types: fc.uniqueArray(fc.constantFrom(...EVENT_TYPES), { minLength: 1 }),
}).map(
  (fields) =>
    ({
      platform: 'android',
      service: 'com.fuzz.app',
      environment: 'production',
      ...fields,
    }) as Record<string, unknown>,
)
