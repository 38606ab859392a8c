import { describe, expect, it } from 'vitest'
import { EVENT_TYPES } from './enums'
import { parseMobileTokenEnvelope } from './mobile-token'
import { errorsOf } from './test-results'

const base = { platform: 'android', service: 'com.example.app', environment: 'production' }
const parse = (request: object) => parseMobileTokenEnvelope({ mobile_ingest_token: request })

const rejected = (request: object) => errorsOf(parse(request))

describe('mobile ingest token request (section 2.5)', () => {
  it('applies the defaults: 900 seconds and all six event types', () => {
    expect(parse(base)).toEqual({
      ok: true,
      value: { ...base, expires_in_seconds: 900, allowed_event_types: [...EVENT_TYPES] },
    })
  })

  it.each([['android'], ['ios']])('platform %s is accepted', (platform) => {
    expect(parse({ ...base, platform }).ok).toBe(true)
  })

  it.each([
    [
      'platform outside the enum',
      { platform: 'web' },
      'platform is not included in the list (android, ios)',
    ],
    [
      'platform in another case',
      { platform: 'iOS' },
      'platform is not included in the list (android, ios)',
    ],
    [
      'expires_in_seconds 59 is below the minimum',
      { expires_in_seconds: 59 },
      'expires_in_seconds must be greater than or equal to 60',
    ],
    [
      'expires_in_seconds 3601 is above the maximum',
      { expires_in_seconds: 3601 },
      'expires_in_seconds must be less than or equal to 3600',
    ],
    [
      'expires_in_seconds must be whole',
      { expires_in_seconds: 90.5 },
      'expires_in_seconds must be an integer',
    ],
    [
      'expires_in_seconds as a string',
      { expires_in_seconds: '900' },
      'expires_in_seconds must be an integer',
    ],
    [
      'allowed_event_types must be an array',
      { allowed_event_types: 'error' },
      'allowed_event_types must be an array',
    ],
    [
      'allowed_event_types may not be empty',
      { allowed_event_types: [] },
      "allowed_event_types can't be empty",
    ],
    [
      'allowed_event_types entries from the enum',
      { allowed_event_types: ['error', 'crash'] },
      'allowed_event_types[1] is not included in the list (error, log, metric, transaction, span, check_in)',
    ],
    ['an unknown property', { device: 'pixel' }, 'device is not permitted'],
    ['service is required', { service: undefined }, "service can't be blank"],
    ['environment is required', { environment: '' }, "environment can't be blank"],
    ['session_id must be a string', { session_id: 5 }, 'session_id must be a string'],
  ])('%s', (_rule, change, error) => {
    expect(rejected({ ...base, ...change })).toEqual([
      error.replace('is not permitted', 'is not a permitted property'),
    ])
  })

  it('platform is required', () => {
    expect(rejected({ service: 's', environment: 'e' })).toEqual(["platform can't be blank"])
  })

  it.each([[60], [3600], [900]])('expires_in_seconds %i is inside', (seconds) => {
    expect(parse({ ...base, expires_in_seconds: seconds })).toMatchObject({
      value: { expires_in_seconds: seconds },
    })
  })

  it.each(EVENT_TYPES)('allowed_event_types may hold %s', (type) => {
    expect(parse({ ...base, allowed_event_types: [type] })).toMatchObject({
      value: { allowed_event_types: [type] },
    })
  })

  it('merges repeated event types', () => {
    expect(parse({ ...base, allowed_event_types: ['error', 'log', 'error'] })).toMatchObject({
      value: { allowed_event_types: ['error', 'log'] },
    })
  })

  it.each([
    ['sessionId', 'session_id', 'sess'],
    ['expiresInSeconds', 'expires_in_seconds', 120],
    ['allowedEventTypes', 'allowed_event_types', ['log']],
    ['PLATFORM', 'platform', 'ios'],
    ['Release', 'release', 'v1'],
  ])('%s → %s', (sent, canonical, value) => {
    const { [canonical as keyof typeof base]: _omit, ...rest } = base
    expect(parse({ ...rest, [sent]: value })).toMatchObject({ value: { [canonical]: value } })
  })

  it('keeps release and session_id when given', () => {
    expect(parse({ ...base, release: '1.0', session_id: 's' })).toMatchObject({
      value: { release: '1.0', session_id: 's' },
    })
  })

  it('lists every problem, unknown properties included', () => {
    expect(rejected({ platform: 'web', a: 1, b: 2 })).toEqual([
      'platform is not included in the list (android, ios)',
      "service can't be blank",
      "environment can't be blank",
      'a is not a permitted property',
      'b is not a permitted property',
    ])
  })
})
