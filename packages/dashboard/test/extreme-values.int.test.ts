import { EXTREME, extremeRowsSql } from '@tis/test-utils/extreme-rows'
import { createClient as createApi, type Harness, startPgliteHarness } from '@tis/test-utils/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDashboard } from '../src/index'
import { ADMIN_TOKEN, HARNESS_ENV } from './fixture'

// Issue 18: every page renders over rows an old database may hold (written past validation:
// 1e308 durations and values, NaN, ±Infinity, the largest bigints, BC and ±infinity times,
// 10,000-character names, javascript: links), and no stored link but http(s) becomes one.
describe('dashboard pages over extreme stored values (PGlite)', () => {
  let harness: Harness
  let dashboard: ReturnType<typeof createDashboard>
  let projectId: string
  let cookie: string

  beforeAll(async () => {
    harness = await startPgliteHarness(HARNESS_ENV)
    dashboard = createDashboard({ engine: harness.server.engine })
    projectId = (await createApi(harness.url).projectWithKey()).projectId
    for (const sql of extremeRowsSql(projectId, harness.now())) await harness.query(sql)
    // Signed in through the form, as a browser is.
    const login = await dashboard.request('/login')
    const csrfCookie = login.headers.get('set-cookie')!.split(';')[0]!
    const csrf = (await login.text()).match(/name="_csrf" value="([^"]+)"/)![1]!
    const signedIn = await dashboard.request('/login', {
      method: 'POST',
      body: new URLSearchParams({ _csrf: csrf, token: ADMIN_TOKEN }),
      headers: { cookie: csrfCookie, 'content-type': 'application/x-www-form-urlencoded' },
    })
    cookie = signedIn.headers
      .getSetCookie()
      .map((c) => c.split(';')[0]!)
      .join('; ')
  }, 60_000)
  afterAll(async () => {
    await harness?.close()
  })

  async function get(path: string) {
    const res = await dashboard.request(path, { headers: { cookie } })
    return { status: res.status, text: await res.text() }
  }

  it('renders every page with 200', async () => {
    const p = `/projects/${projectId}`
    const issueId = (await get(`${p}/issues`)).text.match(/issues\/([0-9a-f-]{36})"/)![1]!
    for (const path of [
      '/projects',
      `${p}/issues`,
      `${p}/issues?status=all`,
      `${p}/inbox-rows`,
      `${p}/issues/${issueId}`,
      `${p}/activity`,
      `${p}/activity/rows?type=metric`,
      `${p}/activity/rows?type=transaction`,
      `${p}/performance`,
      `${p}/performance?name=${encodeURIComponent(EXTREME.transaction)}`,
      `${p}/traces/${EXTREME.traceId}`,
      `${p}/monitors`,
      `${p}/deployments`,
      `${p}/settings`,
    ]) {
      const page = await get(path)
      expect(page.status, `${path}: ${page.text.slice(0, 300)}`).toBe(200)
      expect(page.text, path).not.toMatch(/NaN|Infinity/)
    }
  })

  it('shows the in-range timings only, and links only http(s) URLs', async () => {
    const p = `/projects/${projectId}`
    const perf = await get(`${p}/performance`)
    // 11 transactions, one an error; p50/p95/p99 of the three in range (10, 20, 30 ms).
    expect(perf.text).toContain(
      `${EXTREME.transaction}</a></td><td class="num">11</td><td class="num">9.1%</td><td class="num">20 ms</td><td class="num">29 ms</td><td class="num">30 ms</td>`,
    )
    const deployments = await get(`${p}/deployments`)
    expect(deployments.text).toContain('href="https://ok.test/pr/1"')
    expect(deployments.text).not.toMatch(/<a [^>]*href="(javascript|data|vbscript|file):/i)
  })
})
