import { ADMIN_TOKEN, createClient, type Harness } from '@tis/test-utils/server'
import { expect, it } from 'vitest'

// A public address from TEST-NET-3 (RFC 5737): not private, and no DNS lookup is needed.
const HOOK_URL = 'https://203.0.113.10/hooks/tis'
const SLACK_URL = 'https://203.0.113.11/services/T000/B000/XXXX'

/**
 * Alerts configuration over HTTP (issue 21): channels, rules, the delivery log and test
 * messages, the 422 of each bad input the issue lists, and who may see what. The server runs
 * without SMTP settings and without `SERVICE_ALERTS_ALLOW_PRIVATE_TARGETS`.
 */
export function describeAlerts(harness: () => Harness) {
  const client = () => createClient(harness().url)
  const base = (projectId: string) => `/api/v1/projects/${projectId}`

  async function setup() {
    const c = client()
    const project = await c.createProject()
    const path = base(project.id)
    const post = (suffix: string, json: unknown, token = ADMIN_TOKEN) =>
      c.api('POST', `${path}${suffix}`, { token, json })
    const get = (suffix: string, token = ADMIN_TOKEN) => c.api('GET', `${path}${suffix}`, { token })
    const del = (suffix: string, token = ADMIN_TOKEN) =>
      c.api('DELETE', `${path}${suffix}`, { token })
    const channel = async (json: Record<string, unknown> = {}) => {
      const r = await post('/alert_channels', {
        name: 'ops',
        type: 'webhook',
        url: HOOK_URL,
        ...json,
      })
      expect(r.status, r.text).toBe(201)
      return r.body as { alert_channel: { id: string }; secret: string | null }
    }
    return { c, project, post, get, del, channel }
  }

  it('creates a webhook channel with its secret shown once, lists and deletes it', async () => {
    const { post, get, del } = await setup()
    const created = await post('/alert_channels', {
      alert_channel: { name: 'ops hook', type: 'webhook', url: HOOK_URL },
    })
    expect(created.status).toBe(201)
    expect(created.body).toEqual({
      alert_channel: {
        id: expect.any(String),
        name: 'ops hook',
        type: 'webhook',
        url: HOOK_URL,
        to: null,
        created_at: expect.any(String),
      },
      secret: expect.stringMatching(/^[0-9a-f]{64}$/),
    })
    const slack = await post('/alert_channels', { name: 'team', type: 'slack', url: SLACK_URL })
    expect(slack.status).toBe(201)
    expect(slack.body.secret).toBeNull()
    const listed = await get('/alert_channels')
    expect(listed.body).toEqual({
      alert_channels: [created.body.alert_channel, slack.body.alert_channel],
    })
    expect(listed.text).not.toContain(created.body.secret)
    const id = created.body.alert_channel.id
    expect((await del(`/alert_channels/${id}`)).status).toBe(204)
    expect((await del(`/alert_channels/${id}`)).status).toBe(404)
    expect((await get('/alert_channels')).body.alert_channels).toEqual([slack.body.alert_channel])
  })

  it('creates rules that keep their channels in order, lists and deletes them', async () => {
    const { post, get, del, channel } = await setup()
    const a = (await channel({ name: 'a' })).alert_channel.id
    const b = (await channel({ name: 'b' })).alert_channel.id
    const spike = await post('/alert_rules', {
      name: 'checkout storm',
      trigger: 'spike',
      channel_ids: [b, a],
      environment: 'production',
      level: 'error',
      threshold: 100,
      window_seconds: 300,
    })
    expect(spike.status, spike.text).toBe(201)
    expect(spike.body.alert_rule).toEqual({
      id: expect.any(String),
      name: 'checkout storm',
      trigger: 'spike',
      channel_ids: [b, a],
      environment: 'production',
      level: 'error',
      threshold: 100,
      window_seconds: 300,
      quiet_seconds: 3600,
      created_at: expect.any(String),
    })
    const missed = await post('/alert_rules', {
      alert_rule: { name: 'cron', trigger: 'monitor_missed', channelIds: [a] },
    })
    expect(missed.status, missed.text).toBe(201)
    expect(missed.body.alert_rule).toMatchObject({ quiet_seconds: 0, level: null, threshold: null })
    expect((await get('/alert_rules')).body).toEqual({
      alert_rules: [spike.body.alert_rule, missed.body.alert_rule],
    })
    await del(`/alert_channels/${b}`)
    expect((await get('/alert_rules')).body.alert_rules[0].channel_ids).toEqual([a])
    const ruleId = spike.body.alert_rule.id
    expect((await del(`/alert_rules/${ruleId}`)).status).toBe(204)
    expect((await del(`/alert_rules/${ruleId}`)).status).toBe(404)
    expect((await del('/alert_rules/not-a-uuid')).status).toBe(404)
    expect((await get('/alert_rules')).body.alert_rules).toEqual([missed.body.alert_rule])
  })

  it('queues a test message (202) and shows it in the delivery log, paged newest first', async () => {
    const { post, get, channel } = await setup()
    const { alert_channel } = await channel({ name: 'hook' })
    const tests = []
    for (let i = 0; i < 3; i += 1) {
      const r = await post(`/alert_channels/${alert_channel.id}/test`, undefined)
      expect(r.status, r.text).toBe(202)
      tests.push(r.body.alert_delivery)
    }
    expect(tests[0]).toMatchObject({
      rule_id: null,
      rule_name: null,
      channel_id: alert_channel.id,
      channel_name: 'hook',
      channel_type: 'webhook',
      trigger: 'test',
      subject_id: null,
      attempts: 0,
      last_error: null,
      response_code: null,
      delivered_at: null,
    })
    const first = await get('/alert_deliveries?limit=2')
    expect(first.status).toBe(200)
    const ids = tests.map((t) => t.id).reverse()
    const shown = first.body.alert_deliveries.map((d: { id: string }) => d.id)
    expect(shown).toEqual(ids.slice(0, 2))
    expect(first.body.next_cursor).toEqual(expect.any(String))
    const rest = await get(`/alert_deliveries?limit=2&cursor=${first.body.next_cursor}`)
    expect(rest.body).toMatchObject({ next_cursor: null })
    expect(rest.body.alert_deliveries.map((d: { id: string }) => d.id)).toEqual(ids.slice(2))
    // Every delivery is some status; `failed` narrows the page to those.
    const failed = await get('/alert_deliveries?status=failed')
    expect(
      failed.body.alert_deliveries.every((d: { status: string }) => d.status === 'failed'),
    ).toBe(true)
    const bad = await get('/alert_deliveries?status=lost&cursor=nope')
    expect(bad.status).toBe(422)
    expect(bad.body.errors).toEqual([
      'status must be one of pending, delivered, failed',
      'cursor is not a cursor of this list',
    ])
    expect(
      (await post('/alert_channels/00000000-0000-4000-8000-000000000000/test', undefined)).status,
    ).toBe(404)
  })

  it.each([
    [
      'an unknown trigger',
      '/alert_rules',
      { name: 'r', trigger: 'sometimes', channel_ids: [] },
      /^trigger must be one of/,
    ],
    [
      'an invalid URL',
      '/alert_channels',
      { name: 'x', type: 'webhook', url: 'not a url' },
      /^url must be an http or https URL$/,
    ],
    [
      'a javascript: URL',
      '/alert_channels',
      { name: 'x', type: 'webhook', url: 'javascript:alert(1)' },
      /^url must be an http or https URL$/,
    ],
    [
      'a non-http(s) URL',
      '/alert_channels',
      { name: 'x', type: 'slack', url: 'ftp://203.0.113.5/x' },
      /^url must be an http or https URL$/,
    ],
    [
      'a URL with credentials',
      '/alert_channels',
      { name: 'x', type: 'webhook', url: 'https://u:p@203.0.113.5/' },
      /^url must not contain credentials/,
    ],
    [
      'a loopback target',
      '/alert_channels',
      { name: 'x', type: 'webhook', url: 'http://127.0.0.1:9/' },
      /^url points to a private or local address \(127\.0\.0\.1\)/,
    ],
    [
      'a decimal loopback target',
      '/alert_channels',
      { name: 'x', type: 'webhook', url: 'http://2130706433/' },
      /\(127\.0\.0\.1\).*SERVICE_ALERTS_ALLOW_PRIVATE_TARGETS=true/,
    ],
    [
      'an IPv4-mapped IPv6 target',
      '/alert_channels',
      { name: 'x', type: 'slack', url: 'http://[::ffff:10.0.0.1]/' },
      /\(::ffff:a00:1\)/,
    ],
    [
      'a link-local target',
      '/alert_channels',
      { name: 'x', type: 'webhook', url: 'http://169.254.169.254/' },
      /\(169\.254\.169\.254\)/,
    ],
    [
      'localhost',
      '/alert_channels',
      { name: 'x', type: 'webhook', url: 'http://localhost:3000/' },
      /\(localhost\)/,
    ],
    [
      'email without SMTP settings',
      '/alert_channels',
      { name: 'x', type: 'email', to: 'ops@example.com' },
      /^type email needs the server to send mail: set SERVICE_SMTP_HOST/,
    ],
    [
      'a spike without threshold',
      '/alert_rules',
      {
        name: 'r',
        trigger: 'spike',
        window_seconds: 60,
        channel_ids: ['00000000-0000-4000-8000-000000000000'],
      },
      /^threshold is required for a spike rule$/,
    ],
    [
      'a window out of range',
      '/alert_rules',
      {
        name: 'r',
        trigger: 'spike',
        threshold: 1,
        window_seconds: 10,
        channel_ids: ['00000000-0000-4000-8000-000000000000'],
      },
      /^window_seconds must be an integer from 60 to 86400$/,
    ],
    [
      'empty channel_ids',
      '/alert_rules',
      { name: 'r', trigger: 'new_issue', channel_ids: [] },
      /^channel_ids must name at least one channel$/,
    ],
    [
      'an unknown channel',
      '/alert_rules',
      { name: 'r', trigger: 'new_issue', channel_ids: ['00000000-0000-4000-8000-000000000000'] },
      /^channel_ids\[0\] is not a channel of this project$/,
    ],
    [
      'an unknown level',
      '/alert_rules',
      {
        name: 'r',
        trigger: 'new_issue',
        level: 'loud',
        channel_ids: ['00000000-0000-4000-8000-000000000000'],
      },
      /^level must be one of/,
    ],
    [
      'a blank name',
      '/alert_channels',
      { name: '', type: 'webhook', url: HOOK_URL },
      /^name can't be blank$/,
    ],
    [
      'an unknown field',
      '/alert_channels',
      { name: 'x', type: 'webhook', url: HOOK_URL, secret: 'mine' },
      /^secret is not a permitted property$/,
    ],
  ])('answers 422 naming the field for %s', async (_name, suffix, json, message) => {
    const { post } = await setup()
    const r = await post(suffix, json)
    expect(r.status, r.text).toBe(422)
    expect(r.body.errors).toEqual(expect.arrayContaining([expect.stringMatching(message)]))
  })

  it('refuses another project’s channel in a rule, and answers 400 to a body that is not an object', async () => {
    const { post } = await setup()
    const other = await setup()
    const foreign = (await other.channel()).alert_channel.id
    const r = await post('/alert_rules', {
      name: 'r',
      trigger: 'regression',
      channel_ids: [foreign],
    })
    expect(r.status).toBe(422)
    expect(r.body).toEqual({ errors: ['channel_ids[0] is not a channel of this project'] })
    const notObject = await post('/alert_channels', ['x'])
    expect(notObject.status).toBe(400)
    expect(notObject.body.error).toMatch(/^param is missing or the value is empty: alert_channel/)
  })

  it('lets members manage alerts; others get 404 and no token 401; ids of another project are 404', async () => {
    const { c, project, channel, get } = await setup()
    const member = await c.createUser()
    const stranger = await c.createUser()
    await c.api('POST', `${base(project.id)}/members`, {
      token: ADMIN_TOKEN,
      json: { member: { email: member.email } },
    })
    const { alert_channel } = await channel()
    expect((await get('/alert_channels', member.token)).status).toBe(200)
    // As with API keys, anyone who sees the project may manage its alerts.
    const byMember = await c.api('POST', `${base(project.id)}/alert_channels`, {
      token: member.token,
      json: { name: 'member hook', type: 'webhook', url: HOOK_URL },
    })
    expect(byMember.status).toBe(201)
    for (const suffix of ['/alert_channels', '/alert_rules', '/alert_deliveries']) {
      const hidden = await get(suffix, stranger.token)
      expect(hidden.status).toBe(404)
      expect(hidden.body).toEqual({ error: 'Not found' })
    }
    const anonymous = await c.api('GET', `${base(project.id)}/alert_channels`)
    expect(anonymous.status).toBe(401)
    const other = await setup()
    expect((await other.del(`/alert_channels/${alert_channel.id}`)).status).toBe(404)
    expect((await other.post(`/alert_channels/${alert_channel.id}/test`, undefined)).status).toBe(
      404,
    )
    expect((await get('/alert_channels')).body.alert_channels).toHaveLength(2)
  })
}
