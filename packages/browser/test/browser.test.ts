import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { describeWithChromium, launchChromium } from '@tis/test-utils/chromium'
import { bundleForPage } from '@tis/test-utils/page-bundle'
import { createClient as createApi, type Harness, startPgliteHarness } from '@tis/test-utils/server'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'

const MAX_RESOURCES = 3
const SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><rect width="40" height="40"/></svg>'

// Each asset answers after its delay, so the slowest resources are known in advance.
const ASSETS: Record<string, { type: string; body: string; delayMs: number }> = {
  '/style.css': { type: 'text/css', body: 'body { font: 16px sans-serif }', delayMs: 20 },
  '/app.js': { type: 'text/javascript', body: 'globalThis.appLoaded = true', delayMs: 40 },
  '/img/a.svg': { type: 'image/svg+xml', body: SVG, delayMs: 0 },
  '/img/b.svg': { type: 'image/svg+xml', body: SVG, delayMs: 150 },
  '/img/c.svg': { type: 'image/svg+xml', body: SVG, delayMs: 300 },
  // Still loading when the test navigates away: the capture happens on pagehide.
  '/img/slow.svg': { type: 'image/svg+xml', body: SVG, delayMs: 3000 },
  '/favicon.ico': { type: 'image/x-icon', body: '', delayMs: 0 },
}

type Row = Record<string, unknown> & { payload: Record<string, Record<string, unknown>> }

// The real thing: a page with CSS, JS and images on one origin loads in headless Chromium,
// `capturePageLoad` sends its spans cross-origin (preflight included) to the real tis server on
// another port, and the spans are read back from its database.
// Without Chromium the suite is skipped locally and fails in CI (describeWithChromium).
describeWithChromium('page load in headless Chromium, cross-origin to tis', () => {
  let browser: Browser
  let pages: Server
  let pageOrigin: string
  let harness: Harness
  let bundle: string
  let project: { projectId: string; key: string }

  const html = (route: string, slow: boolean, concurrency: number) => `<!doctype html><html><head>
<link rel="stylesheet" href="/style.css"><script src="/tis.js"></script>
<script>
  const client = tis.createClient({ baseUrl: ${JSON.stringify(harness.url)}, apiKey: ${JSON.stringify(project.key)}, environment: 'browser-e2e', transportOptions: { concurrency: ${concurrency} } })
  tis.capturePageLoad(client, { route: ${JSON.stringify(route)}, maxResources: ${MAX_RESOURCES} })
</script><script src="/app.js"></script></head>
<body><h1>Product</h1><img src="/img/a.svg"><img src="/img/b.svg"><img src="/img/c.svg">${slow ? '<img src="/img/slow.svg">' : ''}</body></html>`

  beforeAll(async () => {
    bundle = await bundleForPage(
      `export * from '@tis/sdk'\nexport * from './src/index.ts'`,
      fileURLToPath(new URL('..', import.meta.url)),
      'tis',
    )
    pages = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://page')
      const asset = ASSETS[url.pathname]
      if (url.pathname === '/tis.js') {
        res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(bundle)
      } else if (asset) {
        setTimeout(() => {
          res.writeHead(200, { 'Content-Type': asset.type, 'Cache-Control': 'no-store' })
          res.end(asset.body)
        }, asset.delayMs)
      } else {
        const route = url.searchParams.get('route') ?? '/'
        const slow = url.searchParams.has('slow')
        const concurrency = Number(url.searchParams.get('concurrency') ?? 2)
        res.writeHead(200, { 'Content-Type': 'text/html' }).end(html(route, slow, concurrency))
      }
    })
    await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve))
    pageOrigin = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`
    // Only the page's origin may send: `localhost` on the same port is another, refused, origin.
    harness = await startPgliteHarness({ SERVICE_CORS_ORIGINS: pageOrigin })
    project = await createApi(harness.url).projectWithKey()
    browser = await launchChromium()
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    pages?.closeAllConnections()
    await new Promise((resolve) => pages?.close(resolve))
    await harness?.close()
  })

  const spansOf = (route: string) =>
    harness.query<Row>(
      `select * from spans where project_id = $1 and trace_id in
         (select trace_id from spans where project_id = $1 and name = $2 and kind = 'browser')
       order by started_at`,
      [project.projectId, route],
    )

  it('sends a browser root and its slowest resources, readable back from tis', async () => {
    const route = '/products/:id'
    const page = await browser.newPage()
    await page.goto(`${pageOrigin}/products/7?route=${encodeURIComponent(route)}`)
    await page.waitForFunction(() => document.readyState === 'complete')
    await expect.poll(async () => (await spansOf(route)).length, { timeout: 10_000 }).toBe(4)
    const spans = await spansOf(route)
    const root = spans.find((s) => s.kind === 'browser')!
    const children = spans.filter((s) => s !== root)

    expect(root).toMatchObject({ name: route, parent_span_id: null, environment: 'browser-e2e' })
    expect(root.duration_ms as number).toBeGreaterThan(0)
    expect(root.trace_id).toMatch(/^(?!0{32})[0-9a-f]{32}$/)
    expect(root.span_id).toMatch(/^(?!0{16})[0-9a-f]{16}$/)
    const context = root.payload['context']!
    expect(context['request']).toMatchObject({ route, url: `${pageOrigin}/products/7` })
    const vitals = context['web_vitals'] as Record<string, number>
    expect(vitals['ttfb']).toBeGreaterThanOrEqual(0)
    expect(vitals['fcp']).toBeGreaterThan(0)
    expect(vitals['lcp']).toBeGreaterThan(0)
    expect(vitals['cls']).toBeGreaterThanOrEqual(0)

    expect(children.length).toBeGreaterThan(0)
    expect(children.length).toBeLessThanOrEqual(MAX_RESOURCES)
    for (const child of children) {
      expect(child).toMatchObject({ kind: 'resource', trace_id: root.trace_id })
      expect(child.parent_span_id).toBe(root.span_id)
      expect(child.span_id).toMatch(/^(?!0{16})[0-9a-f]{16}$/)
      expect(child.span_id).not.toBe(root.span_id)
      expect((child.started_at as Date).getTime()).toBeGreaterThanOrEqual(
        (root.started_at as Date).getTime(),
      )
      expect((child.ended_at as Date).getTime()).toBeLessThanOrEqual(
        (root.ended_at as Date).getTime(),
      )
      expect(String(child.name)).not.toContain('/api/v1/')
    }
    // The two slowest assets (300 and 150 ms) are among the slowest resources.
    expect(children.map((c) => c.name)).toEqual(
      expect.arrayContaining([`${pageOrigin}/img/c.svg`, `${pageOrigin}/img/b.svg`]),
    )
    await page.close()
  })

  // The capture flushes urgently on pagehide: every span leaves the dying page, with the default
  // concurrency of 2 too (the ones queued behind the first go as one keepalive batch).
  it.each([
    [2, MAX_RESOURCES + 1],
    [MAX_RESOURCES + 1, MAX_RESOURCES + 1],
  ])(
    'captures on pagehide before load; with concurrency %i, %i spans arrive',
    async (concurrency, arriving) => {
      const route = `/left-early-${concurrency}`
      const page = await browser.newPage()
      await page.goto(`${pageOrigin}/?slow&concurrency=${concurrency}&route=${route}`, {
        waitUntil: 'domcontentloaded',
      })
      await page.waitForFunction(() => performance.getEntriesByType('resource').length >= 5)
      await page.goto('about:blank')
      await expect
        .poll(async () => (await spansOf(route)).length, { timeout: 10_000 })
        .toBe(arriving)
      const spans = await spansOf(route)
      const root = spans.find((s) => s.kind === 'browser')!
      expect(root.payload['context']!['navigation']).toMatchObject({ complete: false })
      expect(root.duration_ms as number).toBeGreaterThan(0)
      for (const child of spans.filter((s) => s !== root)) {
        expect(child.parent_span_id).toBe(root.span_id)
        expect((child.ended_at as Date).getTime()).toBeLessThanOrEqual(
          (root.ended_at as Date).getTime(),
        )
      }
      await page.close()
    },
    20_000,
  )

  it('lets the page read error answers (CORS headers on a 422) from an allowed origin', async () => {
    const page = await browser.newPage()
    await page.goto(`${pageOrigin}/?route=/probe`)
    const status = await page.evaluate(
      async ({ url, key }) => {
        const res = await fetch(`${url}/api/v1/ingest_events`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ event: { event_type: 'nonsense' } }),
        })
        return res.status
      },
      { url: harness.url, key: project.key },
    )
    expect(status).toBe(422)
    await page.close()
  })

  it('is refused by the browser from an origin the server does not list', async () => {
    const page = await browser.newPage()
    const other = pageOrigin.replace('127.0.0.1', 'localhost')
    await page.goto(`${other}/?route=/refused`)
    const outcome = await page.evaluate(
      async ({ url, key }) => {
        try {
          await fetch(`${url}/api/v1/ingest_events`, {
            method: 'POST',
            headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
            body: '{}',
          })
          return 'answered'
        } catch (error) {
          return (error as Error).name
        }
      },
      { url: harness.url, key: project.key },
    )
    expect(outcome).toBe('TypeError')
    await page.waitForFunction(() => document.readyState === 'complete')
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect(await spansOf('/refused')).toEqual([])
    await page.close()
  })
})
