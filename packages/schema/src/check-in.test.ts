import { describe, expect, it } from 'vitest'
import { parseCheckInEnvelope } from './check-in'
import { errorsOf } from './test-results'

const NOW = new Date('2026-03-01T10:00:00.000Z')
const parse = (check_in: object, serviceEnvironment = 'production') =>
  parseCheckInEnvelope({ check_in }, { now: NOW, serviceEnvironment })

const rejected = (checkIn: object) => errorsOf(parse(checkIn))

describe('check-in defaults (section 2.3)', () => {
  it('applies every default to a bare slug', () => {
    expect(parse({ slug: 'nightly' }, 'staging')).toEqual({
      ok: true,
      value: {
        slug: 'nightly',
        status: 'ok',
        occurred_at: NOW.toISOString(),
        environment: 'staging',
        release: null,
        expected_interval_seconds: 300,
        duration_ms: null,
        trace_id: null,
        request_id: null,
      },
    })
  })

  it('environment defaults to production when the service sets none', () => {
    expect(parseCheckInEnvelope({ check_in: { slug: 's' } })).toMatchObject({
      value: { environment: 'production' },
    })
  })

  it('keeps every value that is sent', () => {
    const sent = {
      slug: 'backup',
      status: 'error',
      occurred_at: '2026-01-01T00:00:00Z',
      environment: 'eu',
      release: 'v9',
      expected_interval_seconds: 3600,
      duration_ms: 1234.5,
      trace_id: 't',
      request_id: 'r',
    }
    expect(parse(sent)).toEqual({ ok: true, value: sent })
  })

  it('keeps unknown properties', () => {
    expect(parse({ slug: 's', host: 'worker-1' })).toMatchObject({ value: { host: 'worker-1' } })
  })
})

describe('check-in field names', () => {
  it.each([
    ['SLUG', 'slug', 'nightly'],
    ['STATUS', 'status', 'error'],
    ['occurredAt', 'occurred_at', '2026-01-01T00:00:00Z'],
    ['expectedIntervalSeconds', 'expected_interval_seconds', 60],
    ['EXPECTED_INTERVAL_SECONDS', 'expected_interval_seconds', 60],
    ['durationMs', 'duration_ms', 5],
    ['traceId', 'trace_id', 't'],
    ['requestId', 'request_id', 'r'],
  ])('%s → %s', (sent, canonical, value) => {
    const result = parse({ slug: 'nightly', [sent]: value })
    expect(result).toMatchObject({ ok: true, value: { [canonical]: value } })
    expect(result.ok && result.value).not.toHaveProperty(sent === canonical ? '_' : sent)
  })
})

describe('check-in validation', () => {
  it.each([
    ['slug is required', { status: 'ok' }, "slug can't be blank"],
    ['slug may not be blank', { slug: '  ' }, "slug can't be blank"],
    ['slug must be a string', { slug: 5 }, 'slug must be a string'],
    [
      'expected_interval_seconds 0 is outside',
      { slug: 's', expected_interval_seconds: 0 },
      'expected_interval_seconds must be greater than or equal to 1',
    ],
    [
      'expected_interval_seconds must be whole',
      { slug: 's', expected_interval_seconds: 2.5 },
      'expected_interval_seconds must be an integer',
    ],
    [
      'duration_ms below 0',
      { slug: 's', duration_ms: -1 },
      'duration_ms must be greater than or equal to 0',
    ],
    [
      'occurred_at must be RFC 3339',
      { slug: 's', occurred_at: '01/02/2026' },
      'occurred_at must be an RFC 3339 date-time (for example 2026-01-31T12:00:00Z)',
    ],
    ['status must be a string', { slug: 's', status: 1 }, 'status must be a string'],
  ])('%s', (_rule, checkIn, error) => {
    expect(rejected(checkIn)).toEqual([error])
  })

  it('expected_interval_seconds 1 is inside', () => {
    expect(parse({ slug: 's', expected_interval_seconds: 1 }).ok).toBe(true)
  })

  it('duration_ms 0 is inside', () => {
    expect(parse({ slug: 's', duration_ms: 0 }).ok).toBe(true)
  })

  it('lists every problem in field order', () => {
    expect(rejected({ duration_ms: -1, expected_interval_seconds: 0 })).toEqual([
      "slug can't be blank",
      'expected_interval_seconds must be greater than or equal to 1',
      'duration_ms must be greater than or equal to 0',
    ])
  })
})

describe('check-in event_id', () => {
  it('accepts a UUID (alias uuid), stored lower-case; rejects anything else', () => {
    const id = '0190B1C2-3D4E-7F80-9A1B-2C3D4E5F6071'
    const ok = parse({ slug: 'nightly', uuid: id })
    expect(ok.ok && ok.value.event_id).toBe(id.toLowerCase())
    expect(rejected({ slug: 'nightly', eventId: 'nope' })).toEqual([
      'event_id is invalid (must be a UUID such as 0190b1c2-3d4e-7f80-9a1b-2c3d4e5f6071)',
    ])
  })
})
