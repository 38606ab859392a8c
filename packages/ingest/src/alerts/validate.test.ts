import { describe, expect, it } from 'vitest'
import { parseChannel, parseRule } from './validate'

const ID = '0190f2a4-0000-7000-8000-000000000001'
const ID2 = '0190f2a4-0000-7000-8000-000000000002'
const rule = (fields: Record<string, unknown>) =>
  parseRule({ name: 'r', trigger: 'new_issue', channel_ids: [ID], ...fields })

describe('parseChannel', () => {
  it.each([
    ['an unknown type', { name: 'x', type: 'sms' }, 'type must be one of webhook, slack, email'],
    ['a missing type', { name: 'x' }, "type can't be blank"],
    [
      'a blank name',
      { name: '  ', type: 'webhook', url: 'https://a.example' },
      "name can't be blank",
    ],
    [
      'a long name',
      { name: 'n'.repeat(201), type: 'slack', url: 'https://a.example' },
      'name must be at most 200 characters',
    ],
    ['a webhook without url', { name: 'x', type: 'webhook' }, "url can't be blank"],
    ['a url that is not text', { name: 'x', type: 'webhook', url: 5 }, 'url must be a string'],
    [
      'to on a webhook',
      { name: 'x', type: 'webhook', url: 'https://a.example', to: 'a@b.c' },
      'to is only for email channels',
    ],
    [
      'url on email',
      { name: 'x', type: 'email', to: 'a@b.c', url: 'https://a.example' },
      'url is only for webhook and slack channels',
    ],
    ['email without to', { name: 'x', type: 'email' }, 'to is required for an email channel'],
    [
      'an invalid address',
      { name: 'x', type: 'email', to: 'a@b.c, nope' },
      'to has an invalid email address: nope',
    ],
    [
      'to of numbers',
      { name: 'x', type: 'email', to: [1] },
      'to must be an email address, a comma-separated list or an array of them',
    ],
    [
      'too many recipients',
      { name: 'x', type: 'email', to: Array.from({ length: 21 }, (_, i) => `u${i}@x.io`) },
      'to must have at most 20 addresses',
    ],
    [
      'an unknown field',
      { name: 'x', type: 'webhook', url: 'https://a.example', colour: 'red' },
      'colour is not a permitted property',
    ],
  ])('refuses %s', (_name, body, message) => {
    expect(parseChannel(body, true)).toEqual({
      ok: false,
      errors: expect.arrayContaining([message]),
    })
  })

  it('refuses email without SMTP settings, naming the variables', () => {
    expect(parseChannel({ name: 'x', type: 'email', to: 'a@b.c' }, false)).toEqual({
      ok: false,
      errors: [
        'type email needs the server to send mail: set SERVICE_SMTP_HOST and SERVICE_SMTP_FROM',
      ],
    })
  })

  it('reads recipients from a comma-separated string or an array, camelCase or not', () => {
    expect(
      parseChannel({ name: ' ops ', type: 'email', to: 'a@x.io, b@x.io,a@x.io' }, true),
    ).toEqual({
      ok: true,
      value: { name: 'ops', type: 'email', url: null, to: ['a@x.io', 'b@x.io'] },
    })
    expect(parseChannel({ Name: 'w', type: 'webhook', url: 'https://a.example/h' }, true)).toEqual({
      ok: true,
      value: { name: 'w', type: 'webhook', url: 'https://a.example/h', to: null },
    })
  })
})

describe('parseRule', () => {
  it.each([
    [
      'an unknown trigger',
      { trigger: 'sometimes' },
      'trigger must be one of new_issue, regression, spike, monitor_missed, monitor_failed, monitor_recovered, release_crash_free_below',
    ],
    ['empty channel_ids', { channel_ids: [] }, 'channel_ids must name at least one channel'],
    [
      'channel_ids not an array',
      { channel_ids: ID },
      'channel_ids must be an array of channel ids',
    ],
    [
      'a channel id that is no uuid',
      { channel_ids: [ID, 'x'] },
      'channel_ids[1] is not a channel id',
    ],
    [
      'a repeated channel',
      { channel_ids: [ID, ID2, ID.toUpperCase()] },
      'channel_ids[2] repeats a channel',
    ],
    [
      'an unknown level',
      { level: 'loud' },
      'level must be one of debug, info, warn, warning, error, fatal, critical',
    ],
    [
      'a level on a monitor trigger',
      { trigger: 'monitor_failed', level: 'error' },
      'level applies to issue triggers only (new_issue, regression, spike)',
    ],
    [
      'a spike without threshold',
      { trigger: 'spike', window_seconds: 60 },
      'threshold is required for a spike rule',
    ],
    [
      'a spike without window',
      { trigger: 'spike', threshold: 5 },
      'window_seconds is required for a spike rule',
    ],
    [
      'a window too short',
      { trigger: 'spike', threshold: 5, window_seconds: 59 },
      'window_seconds must be an integer from 60 to 86400',
    ],
    [
      'a threshold of 0',
      { trigger: 'spike', threshold: 0, window_seconds: 60 },
      'threshold must be an integer from 1 to 1000000',
    ],
    [
      'a fractional quiet period',
      { quiet_seconds: 1.5 },
      'quiet_seconds must be an integer from 0 to 604800',
    ],
    [
      'a quiet period over a week',
      { quiet_seconds: 604_801 },
      'quiet_seconds must be an integer from 0 to 604800',
    ],
    ['a threshold on another trigger', { threshold: 5 }, 'threshold is only for spike and release_crash_free_below rules'],
    ['an empty environment', { environment: '' }, "environment can't be blank"],
    ['an unknown field', { severity: 'high' }, 'severity is not a permitted property'],
  ])('refuses %s', (_name, fields, message) => {
    expect(rule(fields)).toEqual({ ok: false, errors: expect.arrayContaining([message]) })
  })

  it('defaults the quiet period: 3600 s for spike, 0 otherwise', () => {
    expect(rule({ trigger: 'spike', threshold: 100, windowSeconds: 300 })).toMatchObject({
      ok: true,
      value: { threshold: 100, windowSeconds: 300, quietSeconds: 3_600 },
    })
    expect(rule({ environment: 'production', level: 'error' })).toEqual({
      ok: true,
      value: {
        name: 'r',
        trigger: 'new_issue',
        channelIds: [ID],
        environment: 'production',
        level: 'error',
        threshold: null,
        windowSeconds: null,
        quietSeconds: 0,
      },
    })
  })
})
