import { githubFixture } from '@tis/test-utils/github-fixtures'
import { createClient as createApi, type Harness, startPgliteHarness } from '@tis/test-utils/server'
import { http } from 'msw'
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDashboard } from '../src/index'
import {
  ADMIN_TOKEN,
  HARNESS_ENV,
  mintAndroidToken,
  type Seeded,
  seedTelemetry,
  sessionsOf,
} from './fixture'

// Every page rendered by the dashboard over the real engine on in-memory PGlite, with telemetry
// sent through the public API; app.request() drives the pages.
describe('dashboard pages over the engine (PGlite)', () => {
  let harness: Harness
  let dashboard: ReturnType<typeof createDashboard>
  let projectId: string
  let key: string
  let seeded: Seeded
  const session = sessionsOf((path, init) => dashboard.request(path, init))

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
    const { cookie } = await session(token)
    const res = await dashboard.request(path, { headers: { cookie } })
    return { res, text: await res.text() }
  }
  async function post(
    path: string,
    form: Record<string, string>,
    token = ADMIN_TOKEN,
    headers: Record<string, string> = {},
  ) {
    const { cookie, csrf } = await session(token)
    return dashboard.request(path, {
      method: 'POST',
      body: new URLSearchParams({ _csrf: csrf, ...form }),
      headers: { ...headers, cookie, 'content-type': 'application/x-www-form-urlencoded' },
    })
  }

  /** The markup of one settings section: from its heading to the next section's. */
  function sectionOf(html: string, id: string) {
    const start = html.indexOf(`<h2 id="${id}">`)
    expect(start, `section #${id}`).toBeGreaterThan(-1)
    const end = html.indexOf('<h2 ', start + 1)
    return html.slice(start, end === -1 ? undefined : end)
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
    const sessionCookie = ok.headers.get('set-cookie')
    // A random session id, never the access token.
    expect(sessionCookie).toMatch(
      /^tis_session=[A-Za-z0-9_-]{43}; Max-Age=2592000; Path=\/; HttpOnly; SameSite=Strict$/,
    )
    expect(sessionCookie).not.toContain(ADMIN_TOKEN.slice('tis_user_'.length))
  })

  it('refuses a state-changing form without the session CSRF token', async () => {
    const res = await dashboard.request(`/projects/${projectId}/settings/archive`, {
      method: 'POST',
      body: new URLSearchParams({ _csrf: 'x' }),
      headers: {
        cookie: (await session(ADMIN_TOKEN)).cookie,
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
    expect(issues.text).toContain('data-keep="sparkline"')
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
    const fragment = await post(path, { status: 'unresolved' }, ADMIN_TOKEN, {
      'x-tis-fragment': '1',
    })
    expect(fragment.status).toBe(200)
    expect(await fragment.text()).toMatch(/^<tr data-row=.*s-unresolved/s)
    const evil = await post(path, { status: 'resolved', return_to: 'https://evil.example/' })
    expect(evil.headers.get('location')).toBe(`/projects/${projectId}/issues/${issueId}`)
  })

  it('searches the inbox with the search syntax, and shows a rejected term beside the box', async () => {
    const issues = async (query: string) => get(`/projects/${projectId}/issues?${query}`)
    const q = (text: string) => `query=${encodeURIComponent(text)}`
    // The test above left the issue resolved.
    const found = await issues(`${q('level:error "TypeError: boom"')}&status=all`)
    expect(found.res.status).toBe(200)
    expect(found.text).toContain(seeded.errorTitle)
    expect(found.text).toContain('value="level:error &quot;TypeError: boom&quot;"')
    expect(found.text).toContain('<summary>Search syntax</summary>')
    expect((await issues(`${q('level:fatal')}&status=all`)).text).not.toContain(seeded.errorTitle)
    // A status in the search decides alone: the status field shows all, not unresolved.
    const resolved = await issues(q('is:resolved'))
    expect(resolved.text).toContain(seeded.errorTitle)
    expect(resolved.text).toContain('<option selected="">all</option>')
    const issueId = found.text.match(/issues\/([0-9a-f-]{36})"/)![1]!
    await post(`/projects/${projectId}/issues/${issueId}/status`, { status: 'unresolved' })
    expect((await issues(q('is:resolved'))).text).not.toContain(seeded.errorTitle)
    // Later tests find the issue resolved, as the test above left it.
    await post(`/projects/${projectId}/issues/${issueId}/status`, { status: 'resolved' })
    const bySort = await issues('sort=times_seen')
    expect(bySort.text).toContain('Most events first')
    expect(bySort.text).toContain('<option value="times_seen" selected="">times seen</option>')

    const bad = await issues('query=browser%3Achrome')
    expect(bad.res.status).toBe(400)
    expect(bad.text).toContain('role="alert" id="f-query-error"')
    expect(bad.text).toContain(
      'Search: query has an unknown key &quot;browser&quot; in browser:chrome',
    )
    expect(bad.text).toContain('aria-invalid="true"')
    expect(bad.text).toContain('value="browser:chrome"')
  })

  it('assigns an issue to a member from its page, and finds it with assigned:me', async () => {
    const issues = await get(`/projects/${projectId}/issues?status=all`)
    const issueId = issues.text.match(/issues\/([0-9a-f-]{36})"/)![1]!
    const page = async () => (await get(`/projects/${projectId}/issues/${issueId}`)).text
    const before = await page()
    expect(before).toContain('<label for="assignee-select">Assignee </label>')
    expect(before).toContain('<option value="" selected="">Unassigned</option>')
    // The project's owner (the administrator here) is the one member offered.
    const owner = before.match(/<option value="([^"]+@[^"]+)">/)![1]!
    const path = `/projects/${projectId}/issues/${issueId}/assignee`
    const assigned = await post(path, {
      assignee: owner,
      return_to: `/projects/${projectId}/issues`,
    })
    expect(assigned.status).toBe(303)
    expect(assigned.headers.get('location')).toBe(`/projects/${projectId}/issues`)
    expect(await page()).toContain(`<option value="${owner}" selected="">${owner}</option>`)
    const mine = await get(`/projects/${projectId}/issues?status=all&query=assigned%3Ame`)
    expect(mine.text).toContain(`assigned to ${owner}`)
    await post(path, { assignee: '' })
    expect(await page()).toContain('<option value="" selected="">Unassigned</option>')
    const none = await get(`/projects/${projectId}/issues?status=all&query=assigned%3Ame`)
    expect(none.text).not.toContain(seeded.errorTitle)
  })

  it('comments on an issue in markdown without HTML, deletes it, and shows the activity', async () => {
    const issues = await get(`/projects/${projectId}/issues?status=all`)
    const issueId = issues.text.match(/issues\/([0-9a-f-]{36})"/)![1]!
    const issuePath = `/projects/${projectId}/issues/${issueId}`
    const added = await post(`${issuePath}/comments`, {
      body: 'Seen **twice** <img src=x onerror=alert(1)>',
      return_to: issuePath,
    })
    expect(added.status).toBe(303)
    expect(added.headers.get('location')).toBe(`${issuePath}#comments`)
    const page = (await get(issuePath)).text
    expect(page).toContain('Seen <strong>twice</strong> &lt;img src=x onerror=alert(1)&gt;')
    expect(page).not.toContain('<img src=x')
    const commentId = page.match(/id="comment-([0-9a-f-]{36})"/)![1]!
    expect(page).toMatch(/<ol class="activity">.*commented/s)
    const deleted = await post(`${issuePath}/comments/${commentId}/delete`, {})
    expect(deleted.status).toBe(303)
    const after = (await get(issuePath)).text
    expect(after).not.toContain(`id="comment-${commentId}"`)
    expect(after).toContain('deleted a comment')
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
      /keys\/([0-9a-f-]{36})\/revoke#api-keys"><input[^>]*><button[^>]*>Revoke from-ui</,
    )![1]!
    const revoked = await post(`/projects/${projectId}/settings/keys/${keyId}/revoke`, {})
    expect(revoked.status).toBe(303)
    expect(revoked.headers.get('location')).toBe(
      `/projects/${projectId}/settings?done=key-revoked#api-keys`,
    )
    const after = (await get(`/projects/${projectId}/settings?done=key-revoked`)).text
    expect(sectionOf(after, 'api-keys')).toContain('The API key was revoked.')
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
    expect(admin.headers.get('location')).toBe(
      `/projects/${own.id}/settings?done=limits-saved#rate-limits`,
    )
    const after = await get(`/projects/${own.id}/settings`)
    expect(after.text).toContain('Save rate limits')
    expect(after.text).toMatch(/Requests per window<\/th><td class="num">5<\/td><td>override/)
    // Another user's project is a 404 page for the owner.
    expect((await get(`/projects/${projectId}/issues`, owner.token)).res.status).toBe(404)
  })

  it('escapes stored text exactly once and emits the doctype and SVG as markup', async () => {
    const evil = `<img src=x onerror=alert(1)> & "quoted" ${Date.now()}`
    const sent = await createApi(harness.url).ingest('/api/v1/ingest_events', key, {
      event: { event_type: 'error', message: evil },
    })
    expect(sent.status).toBe(201)
    const { text } = await get(`/projects/${projectId}/issues`)
    expect(text.startsWith('<!doctype html><html lang="en">')).toBe(true)
    expect(text).not.toContain('<img src=x')
    expect(text).toContain('&lt;img src=x onerror=alert(1)&gt; &amp; &quot;quoted&quot;')
    expect(text).not.toContain('&amp;lt;')
    expect(text).toMatch(/<svg class="chart" role="img" aria-label="1 event in the last 24 hours"/)
  })

  it('draws 24-hour sparklines from one read and serves the live inbox rows', async () => {
    const title = `Sparkline ${Date.now()}`
    for (const minutes of [1, 2, 125]) {
      await createApi(harness.url).ingest('/api/v1/ingest_events', key, {
        event: {
          event_type: 'error',
          message: title,
          occurred_at: new Date(Date.now() - minutes * 60_000).toISOString(),
        },
      })
    }
    const rows = await get(`/projects/${projectId}/inbox-rows?status=unresolved`)
    expect(rows.res.status).toBe(200)
    const row = rows.text.split('<tr ').find((r) => r.includes(title))!
    expect(row).toContain('aria-label="3 events in the last 24 hours"')
    // One bar per hour: the 24 rects of the row's sparkline, three events in at most two hours.
    expect(row.match(/<rect /g)).toHaveLength(24)
    expect(row.match(/fill="#a40e26"/g)!.length).toBeGreaterThanOrEqual(1)
    const page = await get(`/projects/${projectId}/issues`)
    expect(page.text).toContain(`data-live="/projects/${projectId}/inbox-rows?status=unresolved"`)
    // A later page is not live (a bad cursor is the engine's 422, shown as a page).
    expect((await get(`/projects/${projectId}/issues?cursor=x`)).res.status).toBe(422)
  })

  it('charts transaction latency over time, for all or one transaction', async () => {
    const all = await get(`/projects/${projectId}/performance`)
    expect(all.text).toContain('<h2 id="latency">Latency of all transactions</h2>')
    expect(all.text).toMatch(/<(polyline|circle) [^>]*data-series="p95"/)
    expect(all.text).toContain('3 transactions; highest p95 ')
    const one = await get(`/projects/${projectId}/performance?name=POST+%2Fcheckout`)
    expect(one.text).toContain('Latency of POST /checkout')
    expect(one.text).toContain('highest p95 49 ms')
    const none = await get(`/projects/${projectId}/performance?name=nothing`)
    expect(none.text).toContain('No timed transactions in this window.')
  })

  it('links each monitor to its page: status, facts and the paged check-in history', async () => {
    const api = createApi(harness.url)
    const tag = Date.now()
    const slug = `cron <b>${tag}</b>`
    const escapedSlug = `cron &lt;b&gt;${tag}&lt;/b&gt;`
    // The newest check-in a minute ago: its deadline (interval 300 s + grace) is ahead, so the
    // alerts scheduler writes no `missed` row into this history.
    const minute = (n: number) => new Date(Date.now() - (61 - n) * 60_000).toISOString()
    for (let n = 0; n < 50; n++) {
      const r = await api.ingest('/api/v1/check_ins', key, {
        check_in: { slug, environment: 'production', occurred_at: minute(n), duration_ms: 1500 },
      })
      expect(r.status).toBe(201)
    }
    const traceId = 'trace/with?odd#chars'
    const failed = await api.ingest('/api/v1/ingest_events', key, {
      event: {
        event_type: 'check_in',
        message: '<script>alert(1)</script> disk full',
        check_in_slug: slug,
        check_in_status: 'error',
        environment: 'production',
        release: 'v9 & more',
        trace_id: traceId,
        occurred_at: minute(60),
      },
    })
    expect(failed.status).toBe(201)

    const list = await get(`/projects/${projectId}/monitors`)
    const link = list.text.match(
      new RegExp(`<a href="(/projects/${projectId}/monitors/[0-9a-f-]{36})">${escapedSlug}</a>`),
    )
    expect(link, 'the monitors page links the slug').not.toBeNull()
    const page = await get(link![1]!)
    expect(page.res.status).toBe(200)
    expect(page.text).toContain(`<h1>${escapedSlug}</h1>`)
    expect(page.text).toMatch(/<span class="badge s-error">error<\/span> the latest run failed/)
    expect(page.text).toMatch(/<dt>Check-ins<\/dt><dd>51<\/dd>/)
    expect(page.text).not.toContain('<script>alert(1)')
    expect(page.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt; disk full')
    expect(page.text).toContain('<td>v9 &amp; more</td>')
    expect(page.text).toContain(
      `href="/projects/${projectId}/traces/${encodeURIComponent(traceId)}"`,
    )
    const rows = (html: string) =>
      html.split('<tbody>')[1]!.split('</tbody>')[0]!.split('<tr>').length - 1
    expect(rows(page.text)).toBe(50)
    // Newest first: the failed run is on top, 1,500 ms runs below it.
    expect(page.text.indexOf('disk full')).toBeLessThan(page.text.indexOf('1.50 s'))
    const older = page.text.match(/<a href="([^"]+\?cursor=[^"]+)">Older<\/a>/)
    expect(older).not.toBeNull()
    const last = await get(older![1]!.replaceAll('&amp;', '&'))
    expect(rows(last.text)).toBe(1)
    expect(last.text).toContain(`<a href="${link![1]}">Newest</a>`)
    expect(last.text).not.toContain('>Older</a>')

    const unknown = await get(
      `/projects/${projectId}/monitors/00000000-0000-4000-8000-000000000000`,
    )
    expect(unknown.res.status).toBe(404)
  })

  it('lists the members; the owner may add one, a member may not', async () => {
    const api = createApi(harness.url)
    const owner = await api.createUser()
    const member = await api.createUser()
    const own = await api.createProject(owner.token)
    const added = await post(
      `/projects/${own.id}/settings/members`,
      { email: member.email },
      owner.token,
    )
    expect(added.status).toBe(303)
    expect(added.headers.get('location')).toBe(
      `/projects/${own.id}/settings?done=member-added#project-members`,
    )
    const page = (await get(`/projects/${own.id}/settings?done=member-added`, owner.token)).text
    expect(sectionOf(page, 'project-members')).toContain('The member was added.')
    const list = page.slice(page.indexOf('<tbody id="members">'))
    expect(list.indexOf(owner.email)).toBeGreaterThan(-1)
    expect(list.indexOf(member.email)).toBeGreaterThan(list.indexOf(owner.email))
    expect(list).toMatch(/<td>owner<\/td>.*<td>member<\/td>/s)
    expect(page).toContain('Add member')
    const seen = (await get(`/projects/${own.id}/settings`, member.token)).text
    expect(seen).toContain(owner.email)
    expect(seen).not.toContain('Add member')
    expect(seen).not.toContain('Archive project')
  })

  it("shows the project's Sentry DSN, as the management API gives it", async () => {
    const api = await createApi(harness.url).api('GET', `/api/v1/projects/${projectId}`, {
      token: ADMIN_TOKEN,
    })
    const { dsn, number } = api.body.project as { dsn: string; number: number }
    const key = /^http:\/\/([0-9a-f]{32})@/.exec(dsn)![1]
    const page = (await get(`/projects/${projectId}/settings`)).text
    // The page names its own origin (app.request's is http://localhost), the API its host.
    expect(sectionOf(page, 'project')).toContain(
      `<code id="sentry-dsn">http://${key}@localhost/${number}</code>`,
    )
  })

  it('lists a minted mobile token and revokes it', async () => {
    const project = { id: (await mintAndroidToken(harness)).projectId }
    const page = (await get(`/projects/${project.id}/settings`)).text
    const tokenId = page.match(/mobile-tokens\/([0-9a-f-]{36})\/revoke/)![1]!
    expect(page).toContain('Revoke the android token')
    const revoked = await post(
      `/projects/${project.id}/settings/mobile-tokens/${tokenId}/revoke`,
      {},
    )
    expect(revoked.status).toBe(303)
    expect(revoked.headers.get('location')).toBe(
      `/projects/${project.id}/settings?done=mobile-token-revoked#mobile-tokens`,
    )
    const after = (await get(`/projects/${project.id}/settings?done=mobile-token-revoked`)).text
    expect(sectionOf(after, 'mobile-tokens')).toContain('The mobile token was revoked.')
    expect(after).toContain('No live mobile tokens.')
  })

  it('explains frames without source, and shows the refusal of a token without a secret key', async () => {
    // The seeded issue, resolved by the test above.
    const issues = await get(`/projects/${projectId}/issues?status=resolved`)
    const issueId = issues.text.match(
      new RegExp(`issues/([0-9a-f-]{36})">${seeded.errorTitle}<`),
    )![1]!
    const issuePage = async () => (await get(`/projects/${projectId}/issues/${issueId}`)).text
    const before = await issuePage()
    expect(before).toContain(
      'Source at <code>acme/shop@abcdef1</code>, the commit of the event&#39;s deployment.',
    )
    expect(before).toContain(
      `<a href="/projects/${projectId}/settings#source">Not in the repository: /app/src/checkout.js is an absolute path; set a path prefix`,
    )
    // A path prefix needs no secret key; the frame then lacks only a token.
    const saved = await post(`/projects/${projectId}/settings/source`, {
      github_token: '',
      path_prefix: '/app',
      context_lines: '',
      github_api_url: '',
    })
    expect(saved.status).toBe(303)
    expect(saved.headers.get('location')).toBe(
      `/projects/${projectId}/settings?done=source-saved#source`,
    )
    expect(await issuePage()).toContain(
      `<a href="/projects/${projectId}/settings#source">Connect GitHub in project settings to see source.</a>`,
    )
    const settings = (await get(`/projects/${projectId}/settings?done=source-saved`)).text
    expect(sectionOf(settings, 'source')).toContain('The source code settings were saved.')
    expect(settings).toContain(`action="/projects/${projectId}/settings/source#source"`)
    expect(settings).toMatch(/<dt>Path prefix<\/dt><dd><code>\/app\/<\/code><\/dd>/)
    expect(settings).toContain('<h2 id="source">Source code (GitHub)</h2>')
    expect(settings).toMatch(/<dt>Project token<\/dt><dd>not set<\/dd>/)
    expect(settings).toMatch(/<dt>Server token<\/dt><dd>not configured<\/dd>/)
    const token = 'github_pat_NOSECRETKEY000000000000001'
    const refused = await post(`/projects/${projectId}/settings/source`, {
      github_token: token,
      path_prefix: '/typed/prefix',
      context_lines: '7',
      github_api_url: 'https://ghe.typed.test/api/v3',
    })
    expect(refused.status).toBe(422)
    const html = await refused.text()
    // The refusal is shown in the section, whose form keeps what was typed but the token.
    const source = sectionOf(html, 'source')
    expect(source).toMatch(/<p class="alert" role="alert">[^<]*SERVICE_SECRET_KEY/)
    expect(source).toContain('name="path_prefix" value="/typed/prefix"')
    expect(source).toMatch(/name="context_lines" [^>]*value="7"/)
    expect(source).toMatch(/name="github_api_url" [^>]*value="https:\/\/ghe\.typed\.test\/api\/v3"/)
    expect(source).toMatch(/<dt>Path prefix<\/dt><dd><code>\/app\/<\/code><\/dd>/)
    expect(html).not.toContain(token)
    expect(html).not.toContain('NOSECRETKEY')
  })

  it('lands on the section of a settings form: archive and restore', async () => {
    const own = await createApi(harness.url).createProject(ADMIN_TOKEN)
    const path = `/projects/${own.id}/settings`
    const page = (await get(path)).text
    expect(page).toContain(`action="${path}/archive#project"`)
    const archived = await post(`${path}/archive`, {})
    expect(archived.status).toBe(303)
    expect(archived.headers.get('location')).toBe(`${path}?done=archived#project`)
    const after = (await get(`${path}?done=archived`)).text
    expect(sectionOf(after, 'project')).toContain('The project was archived')
    const restored = await post(`${path}/restore`, {})
    expect(restored.headers.get('location')).toBe(`${path}?done=restored#project`)
  })

  it.each([
    {
      rule: 'create key: an over-long name',
      action: 'keys',
      section: 'api-keys',
      form: { name: `k${'x'.repeat(200)}` },
      shown: [`name="name" maxlength="200" placeholder="default" value="k${'x'.repeat(200)}"`],
    },
    {
      rule: 'add member: an email of no user',
      action: 'members',
      section: 'project-members',
      form: { email: 'nobody-typed@example.test' },
      shown: ['name="email" type="email" required="" value="nobody-typed@example.test"'],
    },
    {
      rule: 'rate limits: a value that is not a number',
      action: 'rate-limits',
      section: 'rate-limits',
      form: { requests: 'lots', period_seconds: '30', auth_failure_requests: '' },
      shown: [/name="requests" [^>]*value="lots"/, /name="period_seconds" [^>]*value="30"/],
    },
  ])('a refused form ($rule) shows its error and what was typed, in its section', async (row) => {
    const own = await createApi(harness.url).createProject(ADMIN_TOKEN)
    const path = `/projects/${own.id}/settings`
    expect((await get(path)).text).toContain(`action="${path}/${row.action}#${row.section}"`)
    const refused = await post(`${path}/${row.action}`, row.form)
    expect(refused.status).toBe(422)
    const html = await refused.text()
    const section = sectionOf(html, row.section)
    expect(section).toMatch(/<p class="alert" role="alert">[^<]+<\/p>/)
    for (const shown of row.shown) expect(section).toMatch(shown)
    // Exactly one alert on the page: the section's, none at the top.
    expect(html.match(/role="alert"/g)).toHaveLength(1)
  })

  it('lists your sessions on the account page, linked from every page', async () => {
    expect((await get('/projects')).text).toContain('<a href="/account">Account</a>')
    const { res, text } = await get('/account')
    expect(res.status).toBe(200)
    expect(text).toContain('Signed in as <strong>admin@tis.test</strong> (administrator).')
    expect(text.match(/>this browser</g)).toHaveLength(1)
    expect(text).toContain('action="/account/sign-out-everywhere"')
    expect(text).toContain('action="/account/token"')
    expect(text).not.toContain(ADMIN_TOKEN)
  })

  it('sends a signed-out or unknown session to the sign-in page', async () => {
    const res = await dashboard.request('/projects', {
      headers: { cookie: 'tis_session=tis_user_unknown' },
    })
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe('/login')
    expect(res.headers.get('set-cookie')).toMatch(/tis_session=;.*Max-Age=0/)
  })

  it('creates a project from the form, and keeps what was typed when refused', async () => {
    const name = 'x'.repeat(201)
    const refused = await post('/projects', { name, integration_kind: 'android' })
    expect(refused.status).toBe(422)
    const html = await refused.text()
    expect(html).toMatch(/<p class="alert" role="alert">[^<]+<\/p>/)
    expect(html).toContain(`value="${name}"`)
    expect(html).toMatch(/<option selected="">android<\/option>/)
    const created = await post('/projects', { name: 'from-the-form', integration_kind: 'node' })
    expect(created.status).toBe(303)
    expect(created.headers.get('location')).toMatch(/^\/projects\/[0-9a-f-]{36}\/settings$/)
  })

  // The inbox's bulk bar and the ignore menu, in a project of their own so the issues of the
  // tests above do not count.
  describe('bulk actions and the ignore menu', () => {
    let bulkProject: string
    const titles = ['Bulk alpha', 'Bulk beta', 'Bulk gamma'].map((t) => `${t} ${Date.now()}`)
    const ids: Record<string, string> = {}
    const inbox = (query = '') => `/projects/${bulkProject}/issues${query}`

    beforeAll(async () => {
      const api = createApi(harness.url)
      const project = await api.projectWithKey()
      bulkProject = project.projectId
      for (const title of titles) {
        await api.ingest('/api/v1/ingest_events', project.key, {
          event: { event_type: 'error', message: title },
        })
      }
      await harness.server.engine.flush()
      const { text } = await get(inbox('?status=all'))
      for (const title of titles) {
        ids[title] = text.match(new RegExp(`issues/([0-9a-f-]{36})">${title}<`))![1]!
      }
    })

    /** A form post with repeated fields, as a browser sends the checked boxes. */
    async function postPairs(path: string, pairs: readonly (readonly [string, string])[]) {
      const { cookie, csrf } = await session(ADMIN_TOKEN)
      const body = new URLSearchParams([['_csrf', csrf], ...pairs.map(([k, v]) => [k, v])])
      return dashboard.request(path, {
        method: 'POST',
        body,
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      })
    }
    const checked = (...titles: string[]) => titles.map((t) => ['issue', ids[t]!] as const)

    it('labels a checkbox per row and "select all", beside a bar of actions', async () => {
      const { text } = await get(inbox())
      for (const title of titles) {
        expect(text).toContain(
          `<input type="checkbox" form="bulk" name="issue" value="${ids[title]}" aria-label="Select: ${title}"`,
        )
      }
      expect(text).toContain('aria-label="Select all issues on this page"')
      expect(text).toContain(
        `<form id="bulk" class="bulk" method="post" action="/projects/${bulkProject}/issues/bulk"`,
      )
      for (const action of ['resolve', 'reopen', 'ignore', 'assign', 'unassign', 'merge']) {
        expect(text).toContain(`name="action" value="${action}"`)
      }
      expect(text).toContain('<summary>Ignore…</summary>')
      expect(text).toContain('All 3 issues matching this search')
    })

    it('resolves the checked issues in one post and says how many changed', async () => {
      const res = await postPairs(`${inbox('/bulk')}?status=unresolved`, [
        ...checked(titles[0]!, titles[1]!),
        ['action', 'resolve'],
      ])
      expect(res.status).toBe(303)
      const back = res.headers.get('location')!
      expect(back).toBe(inbox('?status=unresolved&done=resolve&changed=2&matched=2'))
      const after = (await get(back)).text
      expect(after).toContain(
        '<p class="notice" role="status" id="bulk-notice">2 issues resolved.</p>',
      )
      expect(after).not.toContain(`>${titles[0]}<`)
      expect(after).toContain(`>${titles[2]}<`)
      // The rows' own forms come back to the inbox without the notice.
      expect(after).toContain(`name="return_to" value="${inbox('?status=unresolved')}"`)
      const again = await postPairs(inbox('/bulk'), [
        ...checked(titles[0]!, titles[2]!),
        ['action', 'resolve'],
      ])
      expect((await get(again.headers.get('location')!)).text).toContain(
        '1 issue resolved; 1 issue already was.',
      )
    })

    it('reopens every issue of the page with "select all" and no JavaScript', async () => {
      const res = await postPairs(`${inbox('/bulk')}?status=resolved`, [
        ['all_on_page', '1'],
        ...titles.map((t) => ['page_issue', ids[t]!] as const),
        ['action', 'reopen'],
      ])
      expect(res.headers.get('location')).toBe(
        inbox('?status=resolved&done=reopen&changed=3&matched=3'),
      )
      expect((await get(inbox())).text).toContain('All 3 issues matching this search')
    })

    it('assigns every issue matching the search, and unassigns the checked ones', async () => {
      const query = `?query=${encodeURIComponent('"Bulk beta"')}`
      const page = (await get(inbox(query))).text
      expect(page).toContain('The 1 issue matching this search')
      const owner = page.match(/<option value="([^"]+@[^"]+)">/)![1]!
      const res = await postPairs(inbox(`/bulk${query}`), [
        ['scope', 'query'],
        ['assignee', owner],
        ['action', 'assign'],
      ])
      expect(res.headers.get('location')).toBe(
        inbox('?query=%22Bulk+beta%22&done=assign&changed=1&matched=1'),
      )
      const mine = (await get(inbox('?query=assigned%3Ame'))).text
      expect(mine).toContain(`>${titles[1]}<`)
      expect(mine).not.toContain(`>${titles[0]}<`)
      // Status "all" is said as every status in the search.
      const gamma = `?status=all&query=${encodeURIComponent('"Bulk gamma"')}`
      const every = await postPairs(inbox(`/bulk${gamma}`), [
        ['scope', 'query'],
        ['action', 'resolve'],
      ])
      expect(every.headers.get('location')).toBe(
        inbox('?status=all&query=%22Bulk+gamma%22&done=resolve&changed=1&matched=1'),
      )
      await postPairs(inbox('/bulk'), [...checked(titles[1]!), ['action', 'unassign']])
      expect((await get(inbox('?query=assigned%3Ame'))).text).not.toContain(`>${titles[1]}<`)
      // Environment and release ask for one event with both: no search says that.
      expect((await get(inbox('?environment=production'))).text).not.toContain(
        'matching this search',
      )
    })

    it('shows a refusal in the bar with the boxes still checked', async () => {
      const bad = await postPairs(inbox('/bulk'), [
        ...checked(titles[0]!),
        ['action', 'ignore'],
        ['ignore', 'window'],
        ['window_count', '5'],
        ['window', '30'],
      ])
      expect(bad.status).toBe(422)
      const html = await bad.text()
      expect(html).toContain(
        'role="alert" id="bulk-error">update.ignore_until window_seconds must be a whole number of seconds from 60 to 2,592,000 (30 days)</p>',
      )
      expect(html).toMatch(
        new RegExp(`value="${ids[titles[0]!]}" aria-label="Select: [^"]+" checked=""`),
      )
      expect(html).toContain('<details class="menu" open="">')
      expect(html).toContain(
        'name="window_count" min="1" step="1" inputmode="numeric" aria-label="N events" value="5"',
      )
      // The rows' forms still come back to the inbox, not to the bulk form's path.
      expect(html).toContain(`name="return_to" value="${inbox()}"`)
      const none = await postPairs(inbox('/bulk'), [['action', 'resolve']])
      expect(none.status).toBe(422)
      expect(await none.text()).toContain(
        'Select the issues to change with the boxes of the table first.',
      )
      // Enter in a field submits with the bar's first button, which names no action.
      const enter = await postPairs(inbox('/bulk'), [...checked(titles[0]!), ['action', '']])
      expect(await enter.text()).toContain(
        'Choose an action for the selected issues: Resolve, Reopen',
      )
      const forged = await dashboard.request(inbox('/bulk'), {
        method: 'POST',
        body: new URLSearchParams({ _csrf: 'forged', issue: ids[titles[0]!]!, action: 'resolve' }),
        headers: {
          cookie: (await session(ADMIN_TOKEN)).cookie,
          'content-type': 'application/x-www-form-urlencoded',
        },
      })
      expect(forged.status).toBe(403)
      expect((await get(inbox())).text).toContain(`>${titles[0]}<`)
    })

    it('ignores many issues until a condition from the bulk menu', async () => {
      const res = await postPairs(inbox('/bulk'), [
        ...checked(titles[0]!, titles[1]!),
        ['action', 'ignore'],
        ['ignore', 'users'],
        ['users', '10'],
      ])
      expect(res.headers.get('location')).toBe(inbox('?done=ignore&changed=2&matched=2'))
      const ignored = (await get(inbox('?status=ignored'))).text
      expect(ignored.match(/ · ignored until 10 more users/g)).toHaveLength(2)
    })

    it('ignores an issue from its page until a count, a rate, more users or a time', async () => {
      const issue = `/projects/${bulkProject}/issues/${ids[titles[2]!]}`
      const page = (await get(issue)).text
      expect(page).toContain('<details class="menu" id="ignore-menu"><summary>Ignore…</summary>')
      expect(page).toContain(`action="${issue}/ignore"`)
      // A minute of 30 days from now, as a datetime-local field sends it (read as UTC).
      const later = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 16)
      // One row per choice of the menu: the fields sent and how the page says the condition.
      const cases: readonly (readonly [Record<string, string>, string | null])[] = [
        [{ ignore: 'count', count: '100' }, 'until 100 more events'],
        [
          { ignore: 'window', window_count: '50', window: '3600' },
          'until 50 events within an hour',
        ],
        [{ ignore: 'users', users: '5' }, 'until 5 more users'],
        [{ ignore: 'until', until: later }, `until ${later}:00.000Z`],
        [{ ignore: 'forever' }, null],
      ]
      for (const [fields, said] of cases) {
        const res = await postPairs(`${issue}/ignore`, [
          ...Object.entries(fields),
          ['return_to', issue],
        ])
        expect(res.status, said ?? 'forever').toBe(303)
        expect(res.headers.get('location')).toBe(issue)
        const after = (await get(issue)).text
        expect(after).toContain('<span class="badge s-ignored">ignored</span>')
        if (said) expect(after).toContain(`<span class="muted"> ${said}</span>`)
        else expect(after).not.toContain('<span class="muted"> until')
        // Reopened, so the menu is offered again for the next case.
        await postPairs(`${issue}/status`, [['status', 'unresolved']])
      }
    })

    it("shows the engine's refusal of a condition beside the menu, with what was typed", async () => {
      const issue = `/projects/${bulkProject}/issues/${ids[titles[2]!]}`
      const refused = await postPairs(`${issue}/ignore`, [
        ['ignore', 'until'],
        ['until', '2001-01-01T00:00'],
      ])
      expect(refused.status).toBe(422)
      const html = await refused.text()
      expect(html).toContain('<details class="menu" id="ignore-menu" open="">')
      expect(html).toContain(
        '<p class="alert" role="alert" id="ignore-error">issue.ignore_until until must be in the future</p>',
      )
      expect(html).toContain('value="2001-01-01T00:00"')
      expect(html).toMatch(/id="ignore-until" name="ignore" value="until" checked=""/)
      const zero = await postPairs(`${issue}/ignore`, [
        ['ignore', 'count'],
        ['count', '0'],
      ])
      expect(await zero.text()).toContain(
        'issue.ignore_until count must be a whole number from 1 to 1,000,000,000',
      )
      const forged = await dashboard.request(`${issue}/ignore`, {
        method: 'POST',
        body: new URLSearchParams({ _csrf: 'forged', ignore: 'forever' }),
        headers: {
          cookie: (await session(ADMIN_TOKEN)).cookie,
          'content-type': 'application/x-www-form-urlencoded',
        },
      })
      expect(forged.status).toBe(403)
      expect((await get(issue)).text).toContain(
        '<span class="badge s-unresolved">unresolved</span>',
      )
    })

    // Last of the block: it leaves two of its issues as one.
    it('merges the checked issues into one, whose page the merged one moves to', async () => {
      const one = await postPairs(inbox('/bulk'), [...checked(titles[0]!), ['action', 'merge']])
      expect(one.status).toBe(422)
      expect(await one.text()).toContain('merge.issue_ids must be an array of 2 to 100 issue ids')
      const res = await postPairs(inbox('/bulk'), [
        ...checked(titles[0]!, titles[1]!),
        ['action', 'merge'],
      ])
      expect(res.headers.get('location')).toBe(inbox('?done=merge&changed=2&matched=2'))
      const after = (await get(`${inbox('?status=all&done=merge&changed=2&matched=2')}`)).text
      expect(after).toContain('2 issues merged into one.')
      const left = titles.filter((t) => after.includes(`>${t}<`))
      expect(left).toHaveLength(2)
      const [gone] = titles.slice(0, 2).filter((t) => !left.includes(t))
      const kept = titles.slice(0, 2).find((t) => left.includes(t))!
      const moved = await dashboard.request(`/projects/${bulkProject}/issues/${ids[gone!]}`, {
        headers: { cookie: (await session(ADMIN_TOKEN)).cookie },
      })
      expect(moved.status).toBe(301)
      expect(moved.headers.get('location')).toBe(`/projects/${bulkProject}/issues/${ids[kept]}`)
      expect((await get(`/projects/${bulkProject}/issues/${ids[kept]}`)).text).toContain(
        'merged an issue into this one',
      )
      // A form of a page opened before the merge says where the issue went.
      const stale = await postPairs(`/projects/${bulkProject}/issues/${ids[gone!]}/status`, [
        ['status', 'resolved'],
      ])
      expect(stale.status).toBe(404)
      expect(await stale.text()).toContain(`This issue was merged into ${ids[kept]}`)
    })
  })
})

// Source excerpts on the issue page: a second server whose GitHub is mocked at the HTTP boundary
// with msw (the engine's fetch calls are intercepted; the harness's own HTTP calls pass).
describe('source excerpts on the issue page (GitHub mocked with msw)', () => {
  const GITHUB = 'https://api.github.test'
  const PROJECT_TOKEN = 'github_pat_DASHBOARDtoken_000000000000000000042'
  const SHA = '1111111111111111111111111111111111111111'
  const repository = 'octo/dashboard-shop'
  /** Line n reads `const v<n> = n`; line 12 throws with markup in its text. */
  const file = `${Array.from({ length: 30 }, (_, i) =>
    i === 11 ? "  throw new Error('<script>alert(1)</script>')" : `const v${i + 1} = ${i + 1}`,
  ).join('\n')}\n`
  const github = setupServer(
    http.get(`${GITHUB}/repos/:owner/:repo/contents/*`, ({ request }) => {
      if (request.headers.get('authorization') !== `Bearer ${PROJECT_TOKEN}`) {
        return githubFixture('bad-credentials-401')
      }
      const url = new URL(request.url)
      if (url.pathname.endsWith('/missing.ts')) return githubFixture('not-found-404')
      return url.searchParams.get('ref') === SHA
        ? githubFixture('raw-200', { body: file })
        : githubFixture('not-found-404')
    }),
  )
  let harness: Harness
  let dashboard: ReturnType<typeof createDashboard>

  beforeAll(async () => {
    github.listen({
      onUnhandledRequest: (request, print) => {
        if (new URL(request.url).hostname !== '127.0.0.1') print.error()
      },
    })
    harness = await startPgliteHarness({
      ...HARNESS_ENV,
      SERVICE_SECRET_KEY: 'dashboard-secret-key-0123456789abcdef0123',
      SERVICE_GITHUB_API_URL: GITHUB,
    })
    dashboard = createDashboard({ engine: harness.server.engine })
  }, 60_000)
  afterAll(async () => {
    await harness?.close()
    github.close()
  })

  const session = sessionsOf((path, init) => dashboard.request(path, init))
  const get = async (path: string, token = ADMIN_TOKEN) => {
    const { cookie } = await session(token)
    const res = await dashboard.request(path, { headers: { cookie } })
    return { status: res.status, text: await res.text() }
  }
  const post = async (path: string, form: Record<string, string>, token = ADMIN_TOKEN) => {
    const { cookie, csrf } = await session(token)
    return dashboard.request(path, {
      method: 'POST',
      body: new URLSearchParams({ _csrf: csrf, ...form }),
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    })
  }

  it('shows each frame with its lines at the commit once a project token is set', async () => {
    const api = createApi(harness.url)
    const { projectId, key } = await api.projectWithKey()
    const sent = await api.ingest('/api/v1/ingest_events', key, {
      event: {
        event_type: 'error',
        message: 'Error: excerpt',
        environment: 'production',
        commit_sha: SHA,
        repository,
        context: {
          exception: {
            class: 'Error',
            message: 'excerpt',
            frames: [
              { function: 'handler', filename: '/app/src/handler.ts', lineno: 12, colno: 3 },
              { function: 'lost', filename: '/app/src/missing.ts', lineno: 2, colno: 1 },
              { function: 'dispatch', filename: '/app/node_modules/hono/dist/hono.js', lineno: 40 },
            ],
          },
        },
      },
    })
    expect(sent.status).toBe(201)
    await harness.server.engine.flush()
    const issueId = (await get(`/projects/${projectId}/issues`)).text.match(
      /issues\/([0-9a-f-]{36})">Error: excerpt</,
    )![1]!
    const issuePath = `/projects/${projectId}/issues/${issueId}`
    const settingsPath = `/projects/${projectId}/settings`
    const connect = `<a href="${settingsPath}#source">Connect GitHub in project settings to see source.</a>`
    expect((await get(issuePath)).text).toContain(
      `<a href="${settingsPath}#source">Not in the repository: /app/src/handler.ts is an absolute path; set a path prefix`,
    )
    expect((await post(`${settingsPath}/source`, { path_prefix: '/app' })).status).toBe(303)
    expect((await get(issuePath)).text).toContain(connect)

    const saved = await post(`${settingsPath}/source`, {
      github_token: `  ${PROJECT_TOKEN} `,
      path_prefix: '/app',
      context_lines: '2',
      github_api_url: '',
    })
    expect(saved.status).toBe(303)
    const settings = (await get(`${settingsPath}?done=source-saved`)).text
    expect(settings).toMatch(/<dt>Project token<\/dt><dd>set \(never shown\)<\/dd>/)
    expect(settings).toMatch(/<dt>Context lines<\/dt><dd>2<\/dd>/)
    expect(settings).toContain('Remove the project token')
    expect(settings).toMatch(/<input id="source-token" name="github_token" type="password"/)
    expect(settings).not.toContain(PROJECT_TOKEN)
    expect(settings).not.toContain('DASHBOARDtoken')

    const page = await get(issuePath)
    expect(page.status).toBe(200)
    const html = page.text
    expect(html).not.toContain(PROJECT_TOKEN)
    expect(html).toContain(
      `Source at <code>${repository}@1111111</code>, the commit sent with the event.`,
    )
    // Lines 10 to 14, numbered; line 12 highlighted and named for screen readers.
    const excerpt = html.slice(html.indexOf('<div class="excerpt">'))
    expect(excerpt.match(/<th scope="row" class="ln">/g)).toHaveLength(5)
    for (const n of [10, 11, 13, 14]) {
      expect(excerpt).toContain(
        `<tr><th scope="row" class="ln">${n}</th><td><code>const v${n} = ${n}</code></td></tr>`,
      )
    }
    // Source code is untrusted text: the <script> in line 12 is shown, escaped, not run.
    expect(excerpt).toContain(
      '<tr class="hit" aria-current="true"><th scope="row" class="ln"><span class="skip">Error line </span>12</th><td><code>  throw new Error(&#39;&lt;script&gt;alert(1)&lt;/script&gt;&#39;)</code></td></tr>',
    )
    expect(html).not.toContain('<script>alert(1)')
    expect(html).toMatch(
      new RegExp(
        `<a href="https://github\\.test/${repository}/blob/${SHA}/src/handler\\.ts#L12">view on GitHub at 1111111<span class="skip"> \\(handler, src/handler\\.ts line 12\\)</span></a>`,
      ),
    )
    expect(html).toContain('<code>src/handler.ts:12</code>')
    expect(html).toContain(
      'data-status="not_found">GitHub has no such file or line at this commit, or the token cannot see the repository.</p>',
    )
    expect(html).toContain(
      'data-status="not_in_repository">Not in the repository: /app/node_modules/hono/dist/hono.js is a dependency, not the project&#39;s code.</p>',
    )

    // Clearing the token: the frames ask for one again.
    expect(
      (await post(`${settingsPath}/source`, { github_token: '', clear_token: '1' })).status,
    ).toBe(303)
    expect((await get(settingsPath)).text).toMatch(/<dt>Project token<\/dt><dd>not set<\/dd>/)
  })

  it("shows the engine's validation errors and the form only to the owner and administrators", async () => {
    const api = createApi(harness.url)
    const owner = await api.createUser()
    const member = await api.createUser()
    const own = await api.createProject(owner.token)
    const path = `/projects/${own.id}/settings`
    expect((await post(`${path}/members`, { email: member.email }, owner.token)).status).toBe(303)
    const invalid = await post(
      `${path}/source`,
      { context_lines: '99', github_api_url: 'ftp://x' },
      owner.token,
    )
    expect(invalid.status).toBe(422)
    const html = await invalid.text()
    expect(html).toMatch(
      /<p class="alert" role="alert">context_lines must be an integer from 0 to 50/,
    )
    expect(html).toContain('github_api_url must be an http(s) URL')
    const seen = (await get(path, member.token)).text
    expect(seen).toContain('<h2 id="source">Source code (GitHub)</h2>')
    expect(seen).toContain('Only the owner and administrators can change the source settings.')
    expect(seen).not.toContain('Save source settings')
    expect((await post(`${path}/source`, { path_prefix: '/x' }, member.token)).status).toBe(403)
  })
})
