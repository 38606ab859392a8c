// Source maps end to end, as a team moving a minified front end from Sentry meets them: an
// esbuild bundle injected and uploaded by the real `sentry-cli`, served to headless Chromium,
// where @sentry/browser (from its own vendor script, unmapped) reports an error to tis by its
// DSN alone. On one real server (PGlite): the storage's rules are tested on both drivers in the
// store contract, the resolution's in @tis/ingest.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { describeWithChromium, launchChromium } from '@tis/test-utils/chromium'
import { bundleForPage } from '@tis/test-utils/page-bundle'
import { ADMIN_TOKEN, createClient, type Harness, startPgliteHarness } from '@tis/test-utils/server'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { bundleSentryBrowser } from './support/sentry-browser-page'
import { createSentryProject, type SentryProject, uuidOf } from './support/sentry-clients'
import { buildShop, runSentryCli, type ShopBuild } from './support/sourcemap-builds'

type Browser = Awaited<ReturnType<typeof launchChromium>>

/** `@tis/sdk` with `@tis/browser`, bundled for the page as the global `tis`. */
const bundleTisBrowser = () =>
  bundleForPage(
    `export * from '@tis/sdk'\nexport * from '@tis/browser'`,
    fileURLToPath(new URL('..', import.meta.url)),
    'tis',
  )

/** A page server whose `/assets/…` serve the builds handed to it. */
async function startShopPage(vendor: string, tis: string) {
  const files = new Map<string, string>([
    ['/sentry.js', vendor],
    ['/tis.js', tis],
  ])
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://page').pathname
    if (path === '/') {
      const query = new URL(req.url ?? '/', 'http://page').searchParams
      const [script, sdk] = [query.get('script'), query.get('sdk') ?? 'sentry']
      const html = `<!doctype html><html><head><title>shop</title>
<script src="/${sdk}.js"></script><script src="/${script}"></script></head><body></body></html>`
      return res.writeHead(200, { 'Content-Type': 'text/html' }).end(html)
    }
    const body = files.get(path)
    if (body === undefined) return res.writeHead(404).end()
    res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(body)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    origin,
    async serve(build: ShopBuild) {
      files.set(`/${build.script}`, await build.text())
    },
    async close() {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}

describeWithChromium('source maps: sentry-cli uploads, @sentry/browser reports', () => {
  let harness: Harness
  let browser: Browser
  let page: Awaited<ReturnType<typeof startShopPage>>
  let project: SentryProject
  const builds: ShopBuild[] = []

  beforeAll(async () => {
    page = await startShopPage(await bundleSentryBrowser(), await bundleTisBrowser())
    harness = await startPgliteHarness({ SERVICE_CORS_ORIGINS: page.origin })
    browser = await launchChromium()
    project = await createSentryProject(harness)
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
    await page?.close()
    await harness?.close()
    await Promise.all(builds.map((b) => b.remove()))
  })

  /** Builds, injects debug IDs into, and serves one deploy of the shop. */
  async function deploy(name: string, shift: number) {
    const build = await buildShop(name, shift)
    builds.push(build)
    await runSentryCli(2, ['sourcemaps', 'inject', build.dist])
    await page.serve(build)
    return build
  }

  const upload = (build: ShopBuild, major: 2 | 3, projectId = project.projectId) =>
    runSentryCli(major, [
      '--url',
      harness.url,
      '--auth-token',
      ADMIN_TOKEN,
      'sourcemaps',
      'upload',
      '--org',
      'shop',
      '--project',
      projectId,
      build.dist,
    ])

  /** Loads a build's page, lets the shop fail, and resolves the id of the event Sentry sent. */
  async function reportFrom(build: ShopBuild): Promise<string> {
    const tab = await browser.newPage()
    try {
      await tab.goto(`${page.origin}/?script=${encodeURIComponent(build.script)}`)
      const id = await tab.evaluate(async (dsn) => {
        // biome-ignore lint/suspicious/noExplicitAny: the page's globals, untyped in Node
        const g = globalThis as any
        g.Sentry.init({ dsn, release: 'shop@1' })
        g.runShop((e: unknown) => g.Sentry.captureException(e))
        await g.Sentry.flush(5000)
        return g.Sentry.lastEventId() as string
      }, project.dsn)
      return uuidOf(id)
    } finally {
      await tab.close()
    }
  }

  const readEvent = async (id: string) => (await project.read(`/events/${id}`)).event
  // biome-ignore lint/suspicious/noExplicitAny: frames are free-form JSON
  const appFrames = (event: any): any[] => event.context.exception.frames

  it('shows an event sent before its upload resolved when read after it, in its first issue', async () => {
    const a = await deploy('a', 0)
    const early = await reportFrom(a)
    const minified = appFrames(await readEvent(early))
    expect(minified[0].filename).toBe(`${page.origin}/${a.script}`)
    expect(minified[0].sourcemap).toMatchObject({ resolved: false })
    expect(minified[0].sourcemap.problem).toMatch(/no source map/)
    const before = await readEvent(early)

    await upload(a, 3)
    const after = await readEvent(early)
    const [top] = appFrames(after)
    expect(top).toMatchObject({
      function: 'validateOrder',
      lineno: await a.lineOf('checkout.ts', 'throw new Error'),
      context_line: expect.stringContaining('throw new Error(`cannot place an empty order'),
      sourcemap: { resolved: true, with: 'debug_id' },
      raw: { filename: `${page.origin}/${a.script}`, lineno: minified[0].lineno },
    })
    expect(top.filename).toMatch(/src\/checkout\.ts$/)
    expect(after.issue_id).toBe(before.issue_id)
  }, 90_000)

  it('resolves at projection and groups two deploys of the same code into one issue', async () => {
    const a = builds[0]!
    const b = await deploy('b', 4_000)
    expect(b.script).not.toBe(a.script)
    await upload(b, 2)
    const [fromA, fromB] = [await reportFrom(a), await reportFrom(b)]
    const [eventA, eventB] = [await readEvent(fromA), await readEvent(fromB)]
    for (const [event, build] of [
      [eventA, a],
      [eventB, b],
    ] as const) {
      const [top] = appFrames(event)
      expect(top).toMatchObject({
        function: 'validateOrder',
        lineno: await build.lineOf('checkout.ts', 'throw new Error'),
        colno: expect.any(Number),
        in_app: true,
        sourcemap: { resolved: true },
        raw: { filename: `${page.origin}/${build.script}` },
      })
      expect(top.pre_context.length).toBeGreaterThan(0)
      expect(top.post_context.length).toBeGreaterThan(0)
    }
    const sent = (e: unknown) => [appFrames(e)[0].raw.lineno, appFrames(e)[0].raw.colno]
    expect(sent(eventA)).not.toEqual(sent(eventB))
    expect(eventB.issue_id).toBe(eventA.issue_id)
    const { issue } = await project.read(`/issues/${eventA.issue_id}`)
    expect(issue.count).toBe(2)
  }, 90_000)

  it('resolves the frames @tis/sdk sends with the debug IDs of @tis/browser the same way', async () => {
    const a = builds[0]!
    const c = createClient(harness.url)
    const { projectId, key } = await c.projectWithKey()
    await upload(a, 3, projectId)
    const tab = await browser.newPage()
    try {
      await tab.goto(`${page.origin}/?sdk=tis&script=${encodeURIComponent(a.script)}`)
      const flushed = await tab.evaluate(
        async ([baseUrl, apiKey]) => {
          // biome-ignore lint/suspicious/noExplicitAny: the page's globals, untyped in Node
          const g = globalThis as any
          const client = g.tis.createClient({
            baseUrl,
            apiKey,
            release: 'shop@1',
            integrations: [g.tis.debugIdsIntegration()],
          })
          g.runShop((e: unknown) => client.captureException(e))
          return client.flush(5000)
        },
        [harness.url, key] as const,
      )
      expect(flushed).toMatchObject({ sent: 1, pending: 0 })
    } finally {
      await tab.close()
    }
    const r = await c.api('GET', `/api/v1/projects/${projectId}/events`, { token: ADMIN_TOKEN })
    const [event] = r.body.events
    expect(event.context.debug_meta.images).toEqual([
      expect.objectContaining({ type: 'sourcemap', code_file: `${page.origin}/${a.script}` }),
    ])
    expect(appFrames(event)[0]).toMatchObject({
      function: 'validateOrder',
      lineno: await a.lineOf('checkout.ts', 'throw new Error'),
      context_line: expect.stringContaining('cannot place an empty order'),
      sourcemap: { resolved: true, with: 'debug_id' },
      raw: { filename: `${page.origin}/${a.script}` },
    })
  }, 90_000)
})
