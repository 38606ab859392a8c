import { type AlertReceiver, startAlertReceiver } from '@tis/test-utils/alert-receiver'
import { createClient as createApi, type Harness, startPgliteHarness } from '@tis/test-utils/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDashboard } from '../src/index'
import { ADMIN_TOKEN, HARNESS_ENV, sessionsOf } from './fixture'

// The alerts sections of the settings page over the real engine on PGlite, with the server's
// alerts worker sending to a real HTTP receiver on a local port (private targets allowed).
describe('alerts on the settings page (PGlite)', () => {
  let harness: Harness
  let receiver: AlertReceiver
  let dashboard: ReturnType<typeof createDashboard>
  const session = sessionsOf((path, init) => dashboard.request(path, init))

  beforeAll(async () => {
    harness = await startPgliteHarness({
      ...HARNESS_ENV,
      SERVICE_ALERTS_ALLOW_PRIVATE_TARGETS: 'true',
      SERVICE_ALERTS_WORKER: 'true',
    })
    receiver = await startAlertReceiver()
    dashboard = createDashboard({ engine: harness.server.engine })
  }, 60_000)
  afterAll(async () => {
    await harness?.close()
    await receiver?.close()
  })

  /** A new project and its settings path; `api` calls the alerts API of it over HTTP. */
  async function project() {
    const client = createApi(harness.url)
    const { id } = await client.createProject()
    const api = (path: string, json: unknown) =>
      client.api('POST', `/api/v1/projects/${id}${path}`, { token: ADMIN_TOKEN, json })
    return { path: `/projects/${id}/settings`, api }
  }
  async function page(path: string) {
    const { cookie } = await session(ADMIN_TOKEN)
    const res = await dashboard.request(path, { headers: { cookie } })
    return { status: res.status, text: await res.text() }
  }
  /** Posts a form as a browser does; pairs let a field repeat (checkboxes). */
  async function post(path: string, form: Record<string, string> | Array<[string, string]>) {
    const { cookie, csrf } = await session(ADMIN_TOKEN)
    const pairs = Array.isArray(form) ? form : Object.entries(form)
    const res = await dashboard.request(path, {
      method: 'POST',
      body: new URLSearchParams([['_csrf', csrf], ...pairs]),
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    })
    return { status: res.status, location: res.headers.get('location'), text: await res.text() }
  }
  /** The markup of one settings section: from its heading to the next section's. */
  function sectionOf(html: string, id: string) {
    const start = html.indexOf(`<h2 id="${id}">`)
    expect(start, `section #${id}`).toBeGreaterThan(-1)
    const end = html.indexOf('<h2 ', start + 1)
    return html.slice(start, end === -1 ? undefined : end)
  }
  /** The rows of a section's table body. */
  const rowsOf = (section: string) => section.split('<tbody>')[1]?.split('<tr>').slice(1) ?? []
  /** Two rounds of the alerts worker: the second began after everything queued so far. */
  async function deliver() {
    await harness.server.engine.runAlerts()
    await harness.server.engine.runAlerts()
  }

  it('lists the channels and rules created through the API: a URL by its host only', async () => {
    const { path, api } = await project()
    const slackUrl = receiver.url.replace('/hook', '/services/T000/B000/SLACKSECRETPATH')
    const slack = await api('/alert_channels', { name: 'team room', type: 'slack', url: slackUrl })
    expect(slack.status, slack.text).toBe(201)
    const rule = await api('/alert_rules', {
      name: 'checkout storm',
      trigger: 'spike',
      channel_ids: [slack.body.alert_channel.id],
      environment: 'production',
      level: 'error',
      threshold: 100,
      window_seconds: 300,
      quiet_seconds: 600,
    })
    expect(rule.status, rule.text).toBe(201)
    const html = (await page(path)).text
    const channels = sectionOf(html, 'alert-channels')
    expect(rowsOf(channels)).toHaveLength(1)
    expect(channels).toContain(`<td>team room</td><td>slack</td><td>${new URL(slackUrl).host}</td>`)
    expect(html).not.toContain('SLACKSECRETPATH')
    const rules = sectionOf(html, 'alert-rules')
    expect(rules).toContain(
      '<td>checkout storm</td><td>spike</td><td>team room</td>' +
        '<td>environment production, level error</td><td>100 in 300 s</td><td>600 s</td>',
    )
    expect(sectionOf(html, 'alert-deliveries')).toContain('Nothing sent yet.')
  })

  it('shows a new webhook secret once, never on reload, and refuses a bad URL with the 422', async () => {
    const { path } = await project()
    const created = await post(`${path}/alert-channels`, {
      name: 'ops hook',
      type: 'webhook',
      url: receiver.url,
      to: '',
    })
    expect(created.status).toBe(201)
    const secret = /<pre id="new-secret-value">([0-9a-f]{64})<\/pre>/.exec(created.text)?.[1]
    expect(secret, 'the secret in the answer').toBeDefined()
    const section = sectionOf(created.text, 'alert-channels')
    expect(section).toContain('Copy it now, it is not shown again.')
    expect(section).toContain('The channel was created.')
    const reload = (await page(path)).text
    expect(sectionOf(reload, 'alert-channels')).toContain('<td>ops hook</td>')
    expect(reload).not.toContain(secret!)
    expect(reload).not.toContain('new-secret-value')

    const refused = await post(`${path}/alert-channels`, {
      name: 'ftp hook',
      type: 'webhook',
      url: 'ftp://example.com/hook',
    })
    expect(refused.status).toBe(422)
    const again = sectionOf(refused.text, 'alert-channels')
    expect(again).toMatch(/<p class="alert" role="alert">url [^<]*http/)
    expect(again).toContain('value="ftp://example.com/hook"')
    expect(again).not.toContain('<td>ftp hook</td>')
  })

  it('queues a test message from "Send test" and shows it in the delivery log', async () => {
    const { path, api } = await project()
    const hook = await api('/alert_channels', { name: 'flaky', type: 'webhook', url: receiver.url })
    const id = hook.body.alert_channel.id as string
    await receiver.reset()
    receiver.answer(500)
    const tested = await post(`${path}/alert-channels/${id}/test`, {})
    expect(tested.status).toBe(303)
    expect(tested.location).toBe(`${path}?done=channel-tested#alert-channels`)
    const queued = (await page(`${path}?done=channel-tested`)).text
    expect(sectionOf(queued, 'alert-channels')).toContain('Test message queued')
    // Pending before and after the receiver's 500: a failed attempt is retried later.
    const [row] = rowsOf(sectionOf(queued, 'alert-deliveries'))
    expect(row).toMatch(/<td>test<\/td><td>flaky<\/td><td>test<\/td><td>pending<\/td>/)

    await deliver()
    expect(receiver.requests).toHaveLength(1)
    const [failed] = rowsOf(sectionOf((await page(path)).text, 'alert-deliveries'))
    expect(failed).toMatch(/<td>pending<\/td><td>1<\/td><td>[^<]*500[^<]*<\/td><td>500<\/td>/)

    // A second test is delivered, and listed above the first (newest first).
    expect((await post(`${path}/alert-channels/${id}/test`, {})).status).toBe(303)
    await deliver()
    const log = rowsOf(sectionOf((await page(path)).text, 'alert-deliveries'))
    expect(log).toHaveLength(2)
    expect(log[0]).toMatch(/<td>delivered<\/td><td>1<\/td><td><\/td><td>200<\/td>/)
    expect(log[1]).toContain('<td>pending</td>')
  })

  it('adds a rule from the form, keeps what was typed when refused, and deletes', async () => {
    const { path, api } = await project()
    const a = (await api('/alert_channels', { name: 'a', type: 'webhook', url: receiver.url })).body
      .alert_channel.id as string
    const b = (await api('/alert_channels', { name: 'b', type: 'webhook', url: receiver.url })).body
      .alert_channel.id as string
    const form: Array<[string, string]> = [
      ['name', 'storm'],
      ['trigger', 'spike'],
      ['channel_ids', b],
      ['channel_ids', a],
      ['environment', ''],
      ['level', ''],
      ['threshold', ''],
      ['window_seconds', '60'],
      ['quiet_seconds', ''],
    ]
    const refused = await post(`${path}/alert-rules`, form)
    expect(refused.status).toBe(422)
    const typed = sectionOf(refused.text, 'alert-rules')
    expect(typed).toContain('threshold is required for a spike rule')
    expect(typed).toContain(`value="${a}" checked=""`)
    expect(typed).toContain('<option selected="">spike</option>')
    expect(typed).toContain('value="60"')

    const fixed = form.map(([k, v]): [string, string] => [k, k === 'threshold' ? '5' : v])
    const created = await post(`${path}/alert-rules`, fixed)
    expect(created.location).toBe(`${path}?done=rule-created#alert-rules`)
    const html = (await page(path)).text
    const [rule] = rowsOf(sectionOf(html, 'alert-rules'))
    expect(rule).toContain('<td>storm</td><td>spike</td><td>b, a</td><td>any</td>')
    expect(rule).toContain('<td>5 in 60 s</td><td>3600 s</td>')

    const ruleId = /alert-rules\/([0-9a-f-]{36})\/delete/.exec(html)?.[1]
    const gone = await post(`${path}/alert-rules/${ruleId}/delete`, {})
    expect(gone.location).toBe(`${path}?done=rule-deleted#alert-rules`)
    const deleted = await post(`${path}/alert-channels/${a}/delete`, {})
    expect(deleted.location).toBe(`${path}?done=channel-deleted#alert-channels`)
    const after = (await page(`${path}?done=channel-deleted`)).text
    expect(sectionOf(after, 'alert-channels')).toContain('The channel was deleted.')
    expect(rowsOf(sectionOf(after, 'alert-channels'))).toHaveLength(1)
    expect(sectionOf(after, 'alert-rules')).toContain('No alert rules yet.')
    // Deleting again: the engine's 404, shown in the section.
    const twice = await post(`${path}/alert-channels/${a}/delete`, {})
    expect(twice.status).toBe(404)
    expect(sectionOf(twice.text, 'alert-channels')).toContain('Not found')
  })

  it('escapes a hostile channel name everywhere it is shown', async () => {
    const { path, api } = await project()
    const name = '<script>alert(1)</script>'
    const hook = await api('/alert_channels', { name, type: 'webhook', url: receiver.url })
    await api('/alert_rules', {
      name: `${name} rule`,
      trigger: 'new_issue',
      channel_ids: [hook.body.alert_channel.id],
    })
    await post(`${path}/alert-channels/${hook.body.alert_channel.id}/test`, {})
    const html = (await page(path)).text
    expect(html).not.toContain(name)
    const escaped = '&lt;script&gt;alert(1)&lt;/script&gt;'
    expect(sectionOf(html, 'alert-channels')).toContain(`<td>${escaped}</td>`)
    expect(sectionOf(html, 'alert-rules')).toContain(`<td>${escaped} rule</td>`)
    expect(sectionOf(html, 'alert-deliveries')).toContain(`<td>${escaped}</td>`)
  })
})
