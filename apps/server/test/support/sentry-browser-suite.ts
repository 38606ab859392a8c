import type { launchChromium } from '@tis/test-utils/chromium'
import type { Harness } from '@tis/test-utils/server'
import { expect, it } from 'vitest'
import { APP_SOURCE, type SentryBrowserPage } from './sentry-browser-page'
import {
  createSentryProject,
  expectSentryAppData,
  type SentryIds,
  type SentryProject,
  traceShape,
} from './sentry-clients'

type Browser = Awaited<ReturnType<typeof launchChromium>>

/** What the page's `runSentryApp()` resolves. */
type PageIds = SentryIds & { flushed: boolean; pageloadTraceId: string }

/** One request the page sent to tis, as the browser saw it. */
interface Exchange {
  readonly path: string
  readonly origin: string | undefined
  readonly status: number
  readonly allowOrigin: string | undefined
}

/** The 1-based line of `text` in the application script. */
const lineOf = (text: string) => APP_SOURCE.split('\n').findIndex((l) => l.includes(text)) + 1

/**
 * Loads the page with a fresh project's DSN in Chromium, runs its application and resolves the
 * ids it reported with every request it sent to tis (and every one that failed).
 */
async function runInBrowser(
  browser: Browser,
  pageOrigin: string,
  harness: Harness,
  project: SentryProject,
) {
  const tab = await browser.newPage()
  const exchanges: Promise<Exchange>[] = []
  const failed: string[] = []
  tab.on('response', (r) => {
    if (!r.url().startsWith(harness.url)) return
    // The browser adds `Origin` below playwright's view of the request: read the sent headers.
    const exchange = async () => ({
      path: new URL(r.url()).pathname,
      origin: (await r.request().allHeaders())['origin'],
      status: r.status(),
      allowOrigin: (await r.allHeaders())['access-control-allow-origin'],
    })
    exchanges.push(exchange())
  })
  tab.on('requestfailed', (r) => failed.push(`${r.url()}: ${r.failure()?.errorText}`))
  try {
    await tab.goto(`${pageOrigin}/?dsn=${encodeURIComponent(project.dsn)}`)
    // Runs in the page: this tsconfig has no DOM, so the page's global is reached untyped.
    const ids = await tab.evaluate(() =>
      (globalThis as unknown as { runSentryApp(): Promise<PageIds> }).runSentryApp(),
    )
    return { ids, exchanges: await Promise.all(exchanges), failed }
  } finally {
    await tab.close()
  }
}

/**
 * CORS for real: the page's run failed no request, and every envelope it sent came from its
 * origin, was stored (200) and the browser let the page read the answer.
 */
function expectAllowed(run: Awaited<ReturnType<typeof runInBrowser>>, origin: string, n: number) {
  expect(run.ids.flushed).toBe(true)
  expect(run.failed).toEqual([])
  expect(run.exchanges.length).toBeGreaterThanOrEqual(4)
  for (const exchange of run.exchanges) {
    expect(exchange).toEqual({
      path: `/api/${n}/envelope/`,
      origin,
      status: 200,
      allowOrigin: origin,
    })
  }
}

/** Sentry's browser SDK, unchanged, in a page on another origin than the real tis server. */
export function describeSentryBrowser(h: () => Harness, env: () => [Browser, SentryBrowserPage]) {
  it('stores a page load, an exception, a message and a transaction sent cross-origin', async () => {
    const [browser, page] = env()
    const project = await createSentryProject(h())
    const run = await runInBrowser(browser, page.origin, h(), project)
    expectAllowed(run, page.origin, project.number)
    const { ids } = run
    const { event, frames } = await expectSentryAppData(project, ids, {
      errorTitle: "TypeError: Cannot read properties of undefined (reading 'id')",
      transaction: 'checkout',
      // browserTracingIntegration's; Sentry 11 names it so (the path is in `url.path`).
      automaticTransactions: ['Pageload'],
      // A root of a `ui.*` op is a browser span; the `http.client` span under it an http one.
      trace: [
        ['checkout', 'browser', 0],
        ['POST /api/cart', 'http', 1],
      ],
    })
    expect(event.context.sdk).toMatchObject({
      name: 'sentry.javascript.browser',
      version: expect.stringMatching(/^11\./),
    })
    expect(event.context.request.url).toBe(`${page.origin}/?dsn=${encodeURIComponent(project.dsn)}`)
    expect(frames[0]).toMatchObject({
      function: 'loadOrder',
      filename: `${page.origin}/app.js`,
      lineno: lineOf('return order.id'),
    })
    // The page load (span streaming): a browser root, the page's scripts as resource spans (named
    // by the SDK after their host, the URL in an attribute) and its paints, all under the root.
    const pageload = await traceShape(project, ids.pageloadTraceId)
    expect(pageload[0]).toEqual(['Pageload', 'browser', 0])
    const kinds = new Set(pageload.slice(1).map(([, kind, depth]) => `${kind} ${depth}`))
    expect([...kinds].sort()).toEqual(['render 1', 'resource 1'])
    const { spans } = await project.read(`/traces/${ids.pageloadTraceId}`)
    const scripts = spans
      .filter((s: { context: { op?: string } }) => s.context.op === 'resource.script')
      .map(
        (s: { context: { attributes: Record<string, string> } }) =>
          s.context.attributes['url.full'],
      )
    expect(scripts.sort()).toEqual([`${page.origin}/app.js`, `${page.origin}/sentry.js`])
    // The same page served from another host of the site: its errors join the same issues.
    expectAllowed(
      await runInBrowser(browser, page.otherOrigin, h(), project),
      page.otherOrigin,
      project.number,
    )
    const { issues } = await project.read('/issues')
    const counts = issues.map((i: { title: string; count: number }) => [i.title, i.count]).sort()
    expect(counts).toEqual([
      ["TypeError: Cannot read properties of undefined (reading 'id')", 2],
      ['cache warmed', 2],
    ])
  }, 60_000)
}
