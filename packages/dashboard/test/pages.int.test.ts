import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createClient as createApi } from '../../../apps/server/test/support/client'
import { type Harness, startPgliteHarness } from '../../../apps/server/test/support/harness'
import { createDashboard } from '../src/index'
import { csrfToken } from '../src/session'
import { ADMIN_TOKEN, HARNESS_ENV, type Seeded, seedTelemetry } from './fixture'

// Every page rendered by the dashboard over the real engine on in-memory PGlite, with telemetry
// sent through the public API; app.request() drives the pages.
describe('dashboard pages over the engine (PGlite)', () => {
  let harness: Harness
  let dashboard: ReturnType<typeof createDashboard>
  let projectId: string
  let key: string
  let seeded: Seeded
  const renderMs: Record<string, number> = {}

  beforeAll(async () => {
    harness = await startPgliteHarness(HARNESS_ENV)
    dashboard = createDashboard({ engine: harness.server.engine })
    const project = await createApi(harness.url).projectWithKey()
    projectId = project.projectId
    key = project.key
  }, 60_000)
  afterAll(async () => {
    await harness?.close()
  })

  async function get(path: string, token = ADMIN_TOKEN) {
    const started = performance.now()
    const res = await dashboard.request(path, { headers: { cookie: `tis_session=${token}` } })
    renderMs[path.split('?')[0]!] = performance.now() - started
    return { res, text: await res.text() }
  }
  async function post(path: string, form: Record<string, string>, token = ADMIN_TOKEN) {
    const body = new URLSearchParams({ _csrf: await csrfToken(token), ...form })
    return dashboard.request(path, {
      method: 'POST',
      body,
      headers: {
        cookie: `tis_session=${token}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
    })
  }

  it('signs in with a valid token only, behind a double-submit CSRF cookie', async () => {
    const login = await dashboard.request('/login')
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!
    const csrf = (await login.text()).match(/name="_csrf" value="([^"]+)"/)![1]!
    const attempt = (token: string, sentCsrf = csrf) =>
      dashboard.request('/login', {
        method: 'POST',
        body: new URLSearchParams({ _csrf: sentCsrf, token }),
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      })
    expect((await attempt('tis_user_nope')).status).toBe(401)
    expect((await attempt(ADMIN_TOKEN, 'forged')).status).toBe(403)
    const ok = await attempt(ADMIN_TOKEN)
    expect(ok.status).toBe(303)
    expect(ok.headers.get('location')).toBe('/projects')
    expect(ok.headers.get('set-cookie')).toMatch(
      /^tis_session=tis_user_[^;]+; Path=\/; HttpOnly; SameSite=Strict$/,
    )
  })

  it('refuses a state-changing form without the session CSRF token', async () => {
    const res = await dashboard.request(`/projects/${projectId}/settings/archive`, {
      method: 'POST',
      body: new URLSearchParams({ _csrf: 'x' }),
      headers: {
        cookie: `tis_session=${ADMIN_TOKEN}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
    })
    expect(res.status).toBe(403)
    expect((await get(`/projects/${projectId}/settings`)).text).toContain('Archive project')
  })

  it('explains how to send the first event while the project is empty', async () => {
    const { res, text } = await get(`/projects/${projectId}/issues`)
    expect(res.status).toBe(200)
    expect(text).toContain('Send your first event')
    expect(text).toContain('/api/v1/ingest_events')
    expect(text).toContain('curl -i -X POST')
  })

  it('shows the telemetry sent through the public API on every page', async () => {
    seeded = await seedTelemetry(harness, key, 'unit01')
    const projects = await get('/projects')
    expect(projects.text).toMatch(/<td class="num">2<\/td><td class="num">\d+<\/td>/)
    const issues = await get(`/projects/${projectId}/issues`)
    expect(issues.text).toContain(seeded.errorTitle)
    expect(issues.text).toContain('2 events in the last 24 hours')
    const issueId = issues.text.match(/issues\/([0-9a-f-]{36})"/)![1]!
    const issue = await get(`/projects/${projectId}/issues/${issueId}`)
    for (const text of [
      'chargeCard',
      '/app/src/checkout.js:12:5',
      'TypeError',
      'eu-west-1',
      seeded.logMessage,
    ]) {
      expect(issue.text).toContain(text)
    }
    expect(issue.text).toContain('https://github.com/acme/shop/pull/42')
    expect(issue.text).toContain('https://github.com/acme/shop/commit/abcdef1234567890')
    expect(issue.text).toMatch(/First seen 10 minutes after deploy v2-unit01/)
    expect((await get(`/projects/${projectId}/activity`)).text).toContain(seeded.logMessage)
    expect((await get(`/projects/${projectId}/activity/rows?type=metric`)).text).toContain(
      'db.query',
    )
    const perf = await get(`/projects/${projectId}/performance`)
    expect(perf.text).toContain('POST /checkout')
    expect(perf.text).toContain('33.3%')
    expect(perf.text).toContain('<svg class="chart"')
    const trace = await get(`/projects/${projectId}/traces/${seeded.traceId}`)
    expect(trace.text).toContain('POST stripe')
    expect(trace.text).toContain('Trace waterfall of 3 spans')
    expect((await get(`/projects/${projectId}/monitors`)).text).toContain('nightly-unit01')
    expect((await get(`/projects/${projectId}/deployments`)).text).toContain('compare')
  })

  it('resolves, ignores and reopens an issue in place', async () => {
    const issues = await get(`/projects/${projectId}/issues`)
    const issueId = issues.text.match(/issues\/([0-9a-f-]{36})"/)![1]!
    const path = `/projects/${projectId}/issues/${issueId}/status`
    const back = `/projects/${projectId}/issues?status=unresolved`
    const resolved = await post(path, { status: 'resolved', return_to: back })
    expect(resolved.status).toBe(303)
    expect(resolved.headers.get('location')).toBe(back)
    expect((await get(back)).text).not.toContain(seeded.errorTitle)
    expect((await get(`/projects/${projectId}/issues?status=resolved`)).text).toContain(
      seeded.errorTitle,
    )
    const fragment = await dashboard.request(path, {
      method: 'POST',
      body: new URLSearchParams({ _csrf: await csrfToken(ADMIN_TOKEN), status: 'unresolved' }),
      headers: {
        cookie: `tis_session=${ADMIN_TOKEN}`,
        'x-tis-fragment': '1',
        'content-type': 'application/x-www-form-urlencoded',
      },
    })
    expect(fragment.status).toBe(200)
    expect(await fragment.text()).toMatch(/^<tr data-row=.*s-unresolved/s)
    const evil = await post(path, { status: 'resolved', return_to: 'https://evil.example/' })
    expect(evil.headers.get('location')).toBe(`/projects/${projectId}/issues/${issueId}`)
  })

  it('creates an API key shown once, and revokes it', async () => {
    const created = await post(`/projects/${projectId}/settings/keys`, { name: 'from-ui' })
    expect(created.status).toBe(201)
    const html = await created.text()
    const token = html.match(/<pre id="new-key-token">([^<]+)<\/pre>/)![1]!
    expect(token).toMatch(/^tis_/)
    const settings = await get(`/projects/${projectId}/settings`)
    expect(settings.text).toContain('from-ui')
    expect(settings.text).not.toContain(token)
    const keyId = settings.text.match(
      /keys\/([0-9a-f-]{36})\/revoke"><input[^>]*><button[^>]*>Revoke from-ui</,
    )![1]!
    const revoked = await post(`/projects/${projectId}/settings/keys/${keyId}/revoke`, {})
    expect(revoked.status).toBe(303)
    const after = (await get(`/projects/${projectId}/settings?done=key-revoked`)).text
    expect(after).toContain('The API key was revoked.')
    expect(after).toMatch(/<td>from-ui<\/td><td>.*?<\/td>\s*<td>revoked /s)
    expect(after).not.toContain('Revoke from-ui')
  })

  it('lets only administrators edit rate limits', async () => {
    const api = createApi(harness.url)
    const owner = await api.createUser()
    const own = await api.createProject(owner.token)
    const page = await get(`/projects/${own.id}/settings`, owner.token)
    expect(page.text).toContain('Only application administrators can change rate limits.')
    expect(page.text).not.toContain('Save rate limits')
    const refused = await post(
      `/projects/${own.id}/settings/rate-limits`,
      { requests: '5' },
      owner.token,
    )
    expect(refused.status).toBe(403)
    const admin = await post(`/projects/${own.id}/settings/rate-limits`, {
      requests: '5',
      period_seconds: '',
    })
    expect(admin.status).toBe(303)
    const after = await get(`/projects/${own.id}/settings`)
    expect(after.text).toContain('Save rate limits')
    expect(after.text).toMatch(/Requests per window<\/th><td class="num">5<\/td><td>override/)
    // Another user's project is a 404 page for the owner.
    expect((await get(`/projects/${projectId}/issues`, owner.token)).res.status).toBe(404)
  })

  it('sends a signed-out or unknown session to the sign-in page', async () => {
    const res = await dashboard.request('/projects', {
      headers: { cookie: 'tis_session=tis_user_unknown' },
    })
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe('/login')
    expect(res.headers.get('set-cookie')).toMatch(/tis_session=;.*Max-Age=0/)
  })

  it('renders every page in well under 100 ms on this small data set', () => {
    for (const [path, ms] of Object.entries(renderMs)) expect(ms, path).toBeLessThan(250)
    console.info(
      'dashboard render times (ms):',
      Object.fromEntries(
        Object.entries(renderMs).map(([p, ms]) => [p.replace(projectId, ':id'), Math.round(ms)]),
      ),
    )
  })
})
