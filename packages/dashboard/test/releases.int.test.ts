import { createClient as createApi, type Harness, startPgliteHarness } from '@tis/test-utils/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDashboard } from '../src/index'
import { ADMIN_TOKEN, HARNESS_ENV, sessionsOf } from './fixture'

// Release health in the dashboard over the real engine on PGlite: the releases page (rates,
// adoption, counts, the environment filter, paging), a release's page (rates, session counts,
// the chart, its new issues and deployments), the links to it from the deployments, issue and
// inbox pages, a 404 for an unknown version and nothing for a user outside the project.

// `+`, a space and `@`: a version that breaks unencoded links and query strings.
const VERSION = 'shop@1.0.0+build 7'
const STAGING = 'shop@0.9<b>'
const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString()
const href = (projectId: string, version: string) =>
  `/projects/${projectId}/releases/${encodeURIComponent(version)}`

describe('dashboard releases over the engine (PGlite)', () => {
  let harness: Harness
  let dashboard: ReturnType<typeof createDashboard>
  const session = sessionsOf((path, init) => dashboard.request(path, init))
  let projectId = ''
  let issueId = ''

  async function get(path: string, token = ADMIN_TOKEN) {
    const { cookie } = await session(token)
    const res = await dashboard.request(path, { headers: { cookie } })
    return { res, text: await res.text() }
  }
  async function sessions(key: string, body: object) {
    const res = await harness.server.engine.ingest.recordSessions({
      headers: { authorization: `Bearer ${key}` },
      body,
    })
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(300)
  }
  const production = { release: VERSION, environment: 'production' }

  beforeAll(async () => {
    harness = await startPgliteHarness(HARNESS_ENV)
    dashboard = createDashboard({ engine: harness.server.engine })
    const api = createApi(harness.url)
    const seeded = await api.projectWithKey()
    projectId = seeded.projectId
    // 200 sessions of three users: 189 healthy, 5 errored, 3 abnormal, 3 crashed (all of u3).
    await sessions(seeded.key, {
      sessions: {
        aggregates: [
          { started: minutesAgo(30), did: 'u1', exited: 100 },
          { started: minutesAgo(29), did: 'u2', exited: 89, errored: 5, abnormal: 3 },
          { started: minutesAgo(28), did: 'u3', crashed: 3 },
        ],
        attrs: production,
      },
    })
    // One healthy session of another release in another environment.
    await sessions(seeded.key, {
      session: {
        sid: 'staging-1',
        init: true,
        started: minutesAgo(20),
        status: 'exited',
        did: 'u9',
        attrs: { release: STAGING, environment: 'staging' },
      },
    })
    const send = async (path: string, body: unknown) => {
      const r = await api.ingest(path, seeded.key, body)
      expect(r.status, r.text).toBeLessThan(300)
    }
    await send('/api/v1/deployments', {
      deployment: {
        release: VERSION,
        environment: 'production',
        repository: 'acme/shop',
        commit_sha: 'abcdef1234567890',
        branch: 'main',
        deployed_at: minutesAgo(40),
      },
    })
    await send('/api/v1/ingest_events', {
      event: {
        event_type: 'error',
        level: 'error',
        message: 'TypeError: release boom',
        environment: 'production',
        release: VERSION,
        occurred_at: minutesAgo(25),
      },
    })
    await harness.server.engine.flush()
    const events = await api.api('GET', `/api/v1/projects/${projectId}/issues`, {
      token: ADMIN_TOKEN,
    })
    issueId = events.body.issues[0].id
  }, 60_000)
  afterAll(async () => {
    await harness?.close()
  })

  /** The cells of the table row whose first cell links to `version`. */
  function rowOf(html: string, version: string) {
    const start = html.indexOf(`<a href="${href(projectId, version)}`)
    expect(start, `row of ${version}`).toBeGreaterThan(-1)
    return html.slice(start, html.indexOf('</tr>', start))
  }

  it('lists releases with crash-free rates, adoption, counts and a link to each', async () => {
    const { res, text } = await get(`/projects/${projectId}/releases`)
    expect(res.status).toBe(200)
    expect(text).toContain(`<a href="/projects/${projectId}/releases" aria-current="page">`)
    const row = rowOf(text, VERSION)
    expect(row).toContain(`>${VERSION}</a>`)
    // 1 - 3/200, a warning below 99%; 1 - 1/3 rounded down, bad below 95%.
    expect(row).toContain('<span class="rate s-warn" title="below 99%">98.50%</span>')
    expect(row).toContain('<span class="rate s-error" title="below 95%">66.66%</span>')
    // 200 of the 201 sessions of the last 24 hours (all environments together).
    expect(row).toContain('<td class="num">99.5%</td><td class="num">200</td>')
    expect(row).toContain('<td class="num">3</td>')
    const staging = rowOf(text, STAGING)
    expect(staging).toContain('>shop@0.9&lt;b&gt;</a>')
    expect(staging).toContain('<span>100.00%</span>')
    expect(text).not.toContain('<b>')
    expect(text).toMatch(/<option value="" selected="">All environments<\/option>/)
    expect(text).toContain('<option value="production">production</option>')
  })

  it('filters by environment and window, keeping the filters in the release links', async () => {
    const { text } = await get(`/projects/${projectId}/releases?environment=staging&since=7d`)
    expect(text).not.toContain(`>${VERSION}</a>`)
    const row = rowOf(text, STAGING)
    expect(row).toContain('?environment=staging&amp;since=7d')
    expect(row).toContain('<td>staging</td>')
    expect(text).toContain('<option value="staging" selected="">staging</option>')
    expect(text).toContain('<option value="7d" selected="">last 7d</option>')
    const bad = await get(`/projects/${projectId}/releases?since=yesterday`)
    expect(bad.res.status).toBe(422)
  })

  it('pages through releases with next_cursor', async () => {
    const api = createApi(harness.url)
    const many = await api.projectWithKey()
    for (let i = 0; i < 51; i++) {
      await sessions(many.key, {
        session: {
          sid: `s${i}`,
          init: true,
          started: minutesAgo(60 - i),
          status: 'exited',
          attrs: { release: `r${String(i).padStart(2, '0')}`, environment: 'production' },
        },
      })
    }
    await harness.server.engine.flush()
    const first = await get(`/projects/${many.projectId}/releases`)
    const next = first.text.match(/<a href="([^"]*cursor=[^"]*)">Next page<\/a>/)?.[1]
    expect(next).toBeDefined()
    expect(first.text).toContain('>r50</a>')
    expect(first.text).not.toContain('>r00</a>')
    const second = await get(next!.replaceAll('&amp;', '&'))
    expect(second.text).toContain('>r00</a>')
    expect(second.text).not.toContain('>r50</a>')
    expect(second.text).not.toContain('Next page')
  })

  it("shows a release's health, session counts, chart, new issues and deployments", async () => {
    const { res, text } = await get(href(projectId, VERSION))
    expect(res.status).toBe(200)
    expect(text).toContain(`Release <code>${VERSION}</code>`)
    expect(text).toContain('98.50%')
    expect(text).toContain('66.66%</span> (1 of 3 users crashed)')
    expect(text).toContain('99.5% of the sessions of the last 24 hours in all environments')
    for (const [label, n] of [
      ['Healthy', 189],
      ['Errored', 5],
      ['Crashed', 3],
      ['Abnormal', 3],
      ['Total', 200],
    ] as const) {
      expect(text).toContain(`<th scope="row">${label}</th><td class="num">${n}</td>`)
    }
    expect(text).toMatch(/<svg class="chart" role="img" aria-labelledby="sessions-title/)
    expect(text).toContain('200 sessions, 3 crashed, 5 errored')
    expect(text).toContain('data-series="crashed"')
    expect(text).toContain(
      `<a href="/projects/${projectId}/issues/${issueId}">TypeError: release boom</a>`,
    )
    expect(text).toContain('https://github.com/acme/shop/commit/abcdef1234567890')
    const day = await get(`${href(projectId, VERSION)}?environment=production&since=24h`)
    expect(day.res.status).toBe(200)
    expect(day.text).toContain('<dt>Environment</dt><dd>production</dd>')
    expect(day.text).toContain('<option value="24h" selected="">last 24h</option>')
    // Never seen in staging: a 404 that keeps the form to widen the filters.
    const staging = await get(`${href(projectId, VERSION)}?environment=staging`)
    expect(staging.res.status).toBe(404)
    expect(staging.text).toContain('Nothing of this release in staging in this window.')
    expect(staging.text).toContain('<option value="staging" selected="">staging</option>')
  })

  it('links releases from the deployments, issue and inbox pages', async () => {
    const link = `<a href="${href(projectId, VERSION)}">${VERSION}</a>`
    const deployments = await get(`/projects/${projectId}/deployments`)
    expect(deployments.text).toContain(`<dd>${link}</dd>`)
    const issue = await get(`/projects/${projectId}/issues/${issueId}`)
    // First and last seen, and the deployment.
    expect(issue.text.split(link).length - 1).toBe(3)
    const inbox = await get(`/projects/${projectId}/issues`)
    expect(inbox.text).toContain(link)
  })

  it('answers 404 for an unknown version', async () => {
    const { res, text } = await get(href(projectId, 'shop@9.9.9'))
    expect(res.status).toBe(404)
    expect(text).toContain('<h1>Not found</h1>')
  })

  it("shows nothing of another user's project", async () => {
    const stranger = await createApi(harness.url).createUser()
    for (const path of [`/projects/${projectId}/releases`, href(projectId, VERSION)]) {
      const { res, text } = await get(path, stranger.token)
      expect(res.status).toBe(404)
      expect(text).not.toContain(VERSION)
      expect(text).not.toContain('98.50%')
    }
  })
})
