import { describe, expect, it } from 'vitest'
import { NUMERIC_BOUNDS } from './limits'
import { parseEnvelope } from './parse'
import { acceptedValue, errorsOf } from './test-results'

// Every client-sent number and instant that is stored or aggregated has a documented
// range (docs/validation.md). One row per field: the last accepted value and the first refused
// one, with the message naming the field.

type Envelope = 'event' | 'check_in' | 'deployment' | 'mobile_ingest_token'
// `event:<type>`: an event of that type, for context properties validated on it only.
type Operation = Envelope | 'event:check_in' | 'event:span'

const base: Record<Operation, Record<string, unknown>> = {
  event: { event_type: 'transaction', message: 'GET /' },
  'event:check_in': { event_type: 'check_in', message: 'job ok', check_in_slug: 'job' },
  'event:span': { event_type: 'span', name: 'GET /' },
  check_in: { slug: 'nightly' },
  deployment: { release: 'v1', repository: 'o/n', commit_sha: 'abcdef1' },
  mobile_ingest_token: { platform: 'ios', service: 'app', environment: 'production' },
}

/** The envelope key of `operation`. */
const envelopeOf = (operation: Operation) => operation.split(':')[0] as Envelope

/** The body of `operation` with `path` (`a.b`) set to `value`. */
function body(operation: Operation, path: string, value: unknown) {
  const record: Record<string, unknown> = structuredClone(base[operation])
  const [head, tail] = path.split('.') as [string, string | undefined]
  if (tail === undefined) record[head] = value
  else record[head] = { [tail]: value }
  return { [envelopeOf(operation)]: record }
}

const MAX_DURATION = NUMERIC_BOUNDS.maxDurationMs
const DURATION_MESSAGE = `must be less than or equal to ${MAX_DURATION} (365 days)`
const WINDOW = 'must be on or after 1970-01-01T00:00:00Z and before 2100-01-01T00:00:00Z'
const SAFE = Number.MAX_SAFE_INTEGER

// [operation, field path, last accepted, first refused, message after the field's name]
const rows: [Operation, string, unknown, unknown, string][] = [
  ['event', 'duration_ms', MAX_DURATION, MAX_DURATION + 1, DURATION_MESSAGE],
  ['event', 'duration_ms', 0, -0.001, 'must be greater than or equal to 0'],
  ['event', 'duration_ms', 5e-324, 1e308, DURATION_MESSAGE],
  ['event', 'duration_ms', 1, Number.POSITIVE_INFINITY, 'must be a finite number'],
  ['event', 'context.duration_ms', MAX_DURATION, 1e308, DURATION_MESSAGE],
  ['check_in', 'duration_ms', MAX_DURATION, MAX_DURATION * 2, DURATION_MESSAGE],
  ['event', 'context.value', 1e20, 1.01e20, 'must be less than or equal to 1e20'],
  ['event', 'context.value', -1e20, -1e308, 'must be greater than or equal to -1e20'],
  ['event', 'context.value', 5e-324, Number.NEGATIVE_INFINITY, 'must be a finite number'],
  ['event', 'status', 999, 1000, 'must be less than or equal to 999'],
  ['event', 'status', 0, -1, 'must be greater than or equal to 0'],
  ['event', 'context.status', 599, 2 ** 31, 'must be less than or equal to 999'],
  [
    'event',
    'user_id',
    SAFE,
    2 ** 63,
    `must be less than or equal to ${SAFE} (send larger ids as a string)`,
  ],
  [
    'event',
    'user_id',
    -SAFE,
    -(2 ** 53),
    `must be greater than or equal to -${SAFE} (send larger ids as a string)`,
  ],
  [
    'event',
    'context.user_id',
    '9223372036854775807',
    1e300,
    `must be less than or equal to ${SAFE} (send larger ids as a string)`,
  ],
  [
    'deployment',
    'pull_request_number',
    2_147_483_647,
    2_147_483_648,
    'must be less than or equal to 2147483647',
  ],
  ['deployment', 'pull_request_number', 1, 0, 'must be greater than or equal to 1'],
  [
    'event',
    'expected_interval_seconds',
    2_147_483_647,
    2_147_483_648,
    'must be less than or equal to 2147483647',
  ],
  [
    'event:check_in',
    'context.expected_interval_seconds',
    1,
    0,
    'must be greater than or equal to 1',
  ],
  [
    'check_in',
    'expected_interval_seconds',
    2_147_483_647,
    2 ** 40,
    'must be less than or equal to 2147483647',
  ],
  ['mobile_ingest_token', 'expires_in_seconds', 3600, 3601, 'must be less than or equal to 3600'],
  ['mobile_ingest_token', 'expires_in_seconds', 60, 59, 'must be greater than or equal to 60'],
  ['event', 'occurred_at', '1970-01-01T00:00:00Z', '1969-12-31T23:59:59.999Z', WINDOW],
  ['event', 'occurred_at', '2099-12-31T23:59:59.999999999Z', '2100-01-01T00:00:00Z', WINDOW],
  ['event', 'occurred_at', '1970-01-01T01:00:00+01:00', '0001-01-01T00:00:00Z', WINDOW],
  ['event', 'started_at', '2099-12-31T23:59:59Z', '9999-12-31T23:59:59Z', WINDOW],
  ['event', 'ended_at', '2099-12-31T23:59:59Z', '2100-01-01T00:00:00.000+00:00', WINDOW],
  ['event:span', 'context.started_at', '1970-01-01T00:00:00Z', '1900-01-01T00:00:00Z', WINDOW],
  ['event:span', 'context.ended_at', '2099-12-31T23:59:59Z', '2500-01-01T00:00:00Z', WINDOW],
  ['check_in', 'occurred_at', '1970-01-01T00:00:00Z', '1969-01-01T00:00:00Z', WINDOW],
  ['deployment', 'deployed_at', '2099-12-31T23:59:59Z', '9999-12-31T23:59:59Z', WINDOW],
]

describe('numeric and time bounds', () => {
  it.each(rows)('%s %s: %j is accepted, %j is a 422', (operation, path, last, first, message) => {
    const envelope = envelopeOf(operation)
    acceptedValue(parseEnvelope(envelope, body(operation, path, last)))
    const errors = errorsOf(parseEnvelope(envelope, body(operation, path, first)))
    expect(errors).toEqual([`${path} ${message}`])
  })

  it('a date-time that is not RFC 3339 gets one message, not the window too', () => {
    const errors = errorsOf(parseEnvelope('event', body('event', 'occurred_at', 'yesterday')))
    expect(errors).toEqual([
      'occurred_at must be an RFC 3339 date-time (for example 2026-01-31T12:00:00Z)',
    ])
  })

  it('a string status, user id or pull request number is not bounded as a number', () => {
    const event = acceptedValue(
      parseEnvelope('event', {
        event: { ...base.event, status: '1000', user_id: '-99999999999999999999' },
      }),
    )
    expect(event).toMatchObject({ status: '1000', user_id: '-99999999999999999999' })
    const deployment = acceptedValue(
      parseEnvelope('deployment', body('deployment', 'pull_request_number', '0')),
    )
    expect(deployment.pull_request_number).toBe('0')
  })

  it('a fractional status is neither a string nor an integer', () => {
    const errors = errorsOf(parseEnvelope('event', body('event', 'status', 200.5)))
    expect(errors).toEqual(['status must be a string or an integer'])
  })
})

describe('links are http(s) URLs', () => {
  const FIELDS = [
    'pull_request_url',
    'release_url',
    'compare_url',
    'workflow_run_url',
    'deployment_url',
  ] as const

  it.each(FIELDS)('%s accepts http and https URLs in any case', (field) => {
    for (const url of [
      'https://github.com/o/n/pull/1',
      'http://ci.test:8080/run?id=1#x',
      'HTTPS://X.TEST',
    ]) {
      acceptedValue(parseEnvelope('deployment', body('deployment', field, url)))
    }
  })

  it.each(
    FIELDS.flatMap((field) =>
      [
        'javascript:alert(1)',
        'JavaScript://%0Aalert(1)',
        'data:text/html,<script>alert(1)</script>',
        'vbscript:msgbox',
        'file:///etc/passwd',
        'ftp://example.com/x',
        'mailto:a@b.test',
        'https:',
        'https://',
        'http:/x.test',
        '//x.test/path',
        ' https://x.test',
      ].map((url) => [field, url] as const),
    ),
  )('%s %j is a 422 naming the field', (field, url) => {
    const errors = errorsOf(parseEnvelope('deployment', body('deployment', field, url)))
    expect(errors).toEqual([`${field} must be an http or https URL`])
  })
})
