import { mkdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { describeWithChromium, launchChromium } from '@tis/test-utils/chromium'
import { createClient as createApi, type Harness, startPgliteHarness } from '@tis/test-utils/server'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createDashboard } from '../src/index'
import { ADMIN_TOKEN, HARNESS_ENV } from './fixture'
import { bundleOf, MAPPED_EVENT, MINIFIED } from './source-map-fixtures'

const ARTIFACTS = fileURLToPath(new URL('../test-artifacts/', import.meta.url))
const AXE_SOURCE = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
)

// The stack trace of an event resolved with source maps, served by the real server to a real
// headless Chromium: the folded library frames open on a click, the switch to the frames as sent
// is a plain link; the settings page's Source maps section with a stored bundle. axe-core finds
// nothing serious; screenshots in test-artifacts/.
describeWithChromium('source-mapped stack traces in a browser (headless Chromium)', () => {
  let harness: Harness
  let browser: Browser
  let page: Page
  let issueUrl: string
  let projectId: string

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true })
    harness = await startPgliteHarness(HARNESS_ENV)
    const api = createApi(harness.url)
    const created = await api.projectWithKey()
    projectId = created.projectId
    const { key } = created
    expect((await api.ingest('/api/v1/ingest_events', key, { event: MAPPED_EVENT })).status).toBe(
      201,
    )
    await harness.server.engine.flush()
    const issues = await api.api('GET', `/api/v1/projects/${projectId}/issues`, {
      token: ADMIN_TOKEN,
    })
    issueUrl = `${harness.url}/projects/${projectId}/issues/${issues.body.issues[0].id}`
    browser = await launchChromium()
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
    await page.goto(`${harness.url}/login`)
    await page.getByLabel('User access token').fill(ADMIN_TOKEN)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.waitForURL(`${harness.url}/projects`)
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
    await harness?.close()
  })

  /** Fails on serious or critical axe-core violations (WCAG 2 A/AA); saves a screenshot. */
  async function check(name: string) {
    await page.evaluate(AXE_SOURCE)
    const violations = (await page.evaluate(async () => {
      // biome-ignore lint/suspicious/noExplicitAny: the axe global the injected source defines
      const result = await (globalThis as any).axe.run(document, {
        runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
        resultTypes: ['violations'],
      })
      return result.violations
    })) as { id: string; impact: string | null; nodes: { target: string[] }[] }[]
    const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    expect(serious.map((v) => `${v.id} (${v.nodes.map((n) => n.target).join(', ')})`)).toEqual([])
    await page.screenshot({ path: `${ARTIFACTS}${name}.png`, fullPage: true })
  }

  it('shows the original frames, library frames folded until opened', async () => {
    await page.goto(issueUrl)
    const trace = page.locator('ol.frames').first()
    await expect
      .poll(() => trace.locator('tr.hit').first().textContent())
      .toContain('throw new Error')
    const library = page.getByText('2 library frames')
    expect(await page.getByText('renderRoot', { exact: true }).isVisible()).toBe(false)
    await check('stack-trace-original')
    await library.click()
    expect(await page.getByText('renderRoot', { exact: true }).isVisible()).toBe(true)
    await check('stack-trace-library-open')
  })

  it('switches to the frames as sent and back with plain links', async () => {
    await page.goto(issueUrl)
    await page.getByRole('link', { name: 'as sent (minified)' }).click()
    await page.waitForURL(/\?frames=raw#stack-trace$/)
    expect(await page.locator('ol.frames.raw li').first().textContent()).toBe(
      `o ${MINIFIED}:1:10234`,
    )
    await check('stack-trace-raw')
    await page.getByRole('link', { name: 'original (source maps)' }).click()
    await page.waitForURL((url) => !url.search.includes('frames=raw'))
    expect(await page.getByText('explode', { exact: true }).isVisible()).toBe(true)
  })

  it('lists a stored bundle in the settings page, its debug IDs in full on hover', async () => {
    // The server's engine has no sourceMaps yet: the dashboard over one with it, served to the
    // browser through playwright's routing (`app.request`), on an origin of its own.
    const dashboard = createDashboard({ engine: harness.server.engine })
    const origin = 'http://dashboard.test'
    await page.context().route(`${origin}/**`, async (route) => {
      const request = route.request()
      const url = new URL(request.url())
      const body = request.postData()
      const res = await dashboard.request(`${url.pathname}${url.search}`, {
        method: request.method(),
        headers: await request.allHeaders(),
        ...(body === null ? {} : { body }),
      })
      await route.fulfill({
        status: res.status,
        headers: Object.fromEntries(res.headers),
        body: Buffer.from(await res.arrayBuffer()),
      })
    })
    const bundle = await harness.server.store.saveArtifactBundle(bundleOf(projectId, '1.2.0'))
    await page.goto(`${origin}/login`)
    await page.getByLabel('User access token').fill(ADMIN_TOKEN)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.waitForURL(`${origin}/projects`)
    await page.goto(`${origin}/projects/${projectId}/settings#source-maps`)
    const row = page.locator(`tr[data-bundle="${bundle.id}"]`)
    expect(await row.locator('code').first().getAttribute('title')).toBe(bundle.debugIds[0])
    await page.locator('#source-maps').scrollIntoViewIfNeeded()
    await check('settings-source-maps')
  })
})
