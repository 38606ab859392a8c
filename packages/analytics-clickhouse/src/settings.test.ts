import { describe, expect, it } from 'vitest'
import { analyticsEnvSchema, clickHouseClientOptions, parseAnalyticsSettings } from './settings'

const DEFAULTS = {
  enabled: false,
  url: 'http://localhost:8123',
  database: 'tis',
  eventsTable: 'events_raw',
  spansTable: 'spans_raw',
  sessionsTable: 'session_minutes',
  username: 'default',
  password: '',
  failureThrottleSeconds: 60,
}

describe('parseAnalyticsSettings', () => {
  it('applies every default to an empty environment, and to blank values', () => {
    expect(parseAnalyticsSettings({})).toEqual({ ok: true, settings: DEFAULTS })
    expect(
      parseAnalyticsSettings({ SERVICE_ANALYTICS_DATABASE: ' ', SERVICE_ANALYTICS_ENABLED: '' }),
    ).toEqual({
      ok: true,
      settings: DEFAULTS,
    })
  })

  it.each([
    ['SERVICE_ANALYTICS_ENABLED', 'true', { enabled: true }],
    ['SERVICE_ANALYTICS_ENABLED', 'FALSE', { enabled: false }],
    ['SERVICE_ANALYTICS_ENABLED', '1', { enabled: true }],
    ['SERVICE_ANALYTICS_URL', 'https://ch.example:8443', { url: 'https://ch.example:8443' }],
    ['SERVICE_ANALYTICS_DATABASE', 'analytics_2', { database: 'analytics_2' }],
    ['SERVICE_ANALYTICS_EVENTS_TABLE', '_events', { eventsTable: '_events' }],
    ['SERVICE_ANALYTICS_SPANS_TABLE', 'Spans', { spansTable: 'Spans' }],
    ['SERVICE_ANALYTICS_SESSIONS_TABLE', 'health_1m', { sessionsTable: 'health_1m' }],
    ['SERVICE_ANALYTICS_USERNAME', 'tis', { username: 'tis' }],
    ['SERVICE_ANALYTICS_PASSWORD', ' s3cret ', { password: ' s3cret ' }],
    ['SERVICE_ANALYTICS_FAILURE_THROTTLE_SECONDS', '5', { failureThrottleSeconds: 5 }],
  ])('%s=%s', (name, value, expected) => {
    expect(parseAnalyticsSettings({ [name]: value })).toEqual({
      ok: true,
      settings: { ...DEFAULTS, ...expected },
    })
  })

  it.each([
    ['SERVICE_ANALYTICS_ENABLED', 'maybe', 'SERVICE_ANALYTICS_ENABLED must be true or false'],
    [
      'SERVICE_ANALYTICS_URL',
      'ftp://x',
      'SERVICE_ANALYTICS_URL must be an http:// or https:// URL',
    ],
    ['SERVICE_ANALYTICS_DATABASE', 'tis-prod', 'SERVICE_ANALYTICS_DATABASE must be an identifier'],
    [
      'SERVICE_ANALYTICS_EVENTS_TABLE',
      '1events',
      'SERVICE_ANALYTICS_EVENTS_TABLE must be an identifier',
    ],
    [
      'SERVICE_ANALYTICS_SPANS_TABLE',
      'a'.repeat(65),
      'SERVICE_ANALYTICS_SPANS_TABLE must be an identifier',
    ],
    [
      'SERVICE_ANALYTICS_SPANS_TABLE',
      'x; DROP',
      'SERVICE_ANALYTICS_SPANS_TABLE must be an identifier',
    ],
    [
      'SERVICE_ANALYTICS_SESSIONS_TABLE',
      'session-minutes',
      'SERVICE_ANALYTICS_SESSIONS_TABLE must be an identifier',
    ],
    [
      'SERVICE_ANALYTICS_FAILURE_THROTTLE_SECONDS',
      '0',
      'SERVICE_ANALYTICS_FAILURE_THROTTLE_SECONDS must be an integer',
    ],
    [
      'SERVICE_ANALYTICS_FAILURE_THROTTLE_SECONDS',
      '1.5',
      'SERVICE_ANALYTICS_FAILURE_THROTTLE_SECONDS must be an integer',
    ],
  ])('rejects %s=%s with a message naming the variable', (name, value, message) => {
    const result = parseAnalyticsSettings({ [name]: value })
    expect(result.ok).toBe(false)
    expect(result.ok ? [] : result.errors).toEqual([expect.stringContaining(message)])
  })

  it('exports the schema for the server configuration to reuse', () => {
    expect(analyticsEnvSchema.parse({}).SERVICE_ANALYTICS_DATABASE).toBe('tis')
  })

  it('builds client options with the driver log off', () => {
    expect(clickHouseClientOptions(DEFAULTS, 5_000)).toMatchObject({
      url: 'http://localhost:8123',
      username: 'default',
      password: '',
      request_timeout: 5_000,
    })
  })
})
