import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { describeWithChromium, launchChromium } from '@tis/test-utils/chromium'
import { bundleForPage } from '@tis/test-utils/page-bundle'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'

interface Posted {
  readonly path: string
  readonly auth: string | undefined
  // biome-ignore lint/suspicious/noExplicitAny: assertions read arbitrary body fields
  readonly body: any
}

const read = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let text = ''
    req.on('data', (chunk) => {
      text += chunk
    })
    req.on('end', () => resolve(text))
  })

// A page on one origin sends its sessions cross-origin (preflight, keepalive) to a server on
// another port that records every POST: the tis server's sessions endpoint is not this
// package's to test, the bodies the page sends are.
describeWithChromium('browser sessions in headless Chromium', () => {
  let browser: Browser
  let pages: Server
  let collector: Server
  let pageOrigin: string
  let collectorUrl: string
  let bundle: string
  const posted: Posted[] = []

  const html = (release: string, script: string, mode: string) => `<!doctype html><html><head>
<script src="/tis.js"></script>
<script>
  const client = tis.createClient({ baseUrl: ${JSON.stringify(collectorUrl)}, apiKey: 'tis_k', environment: 'browser-e2e', release: ${JSON.stringify(release)}, integrations: [tis.browserIntegration({ userId: 'u-7', sessions: ${JSON.stringify(mode)} })] })
  ${script}
</script></head><body><h1>Sessions</h1></body></html>`

  beforeAll(async () => {
    bundle = await bundleForPage(
      `export * from '@tis/sdk'\nexport * from './src/index.ts'`,
      fileURLToPath(new URL('..', import.meta.url)),
      'tis',
    )
    collector = createServer(async (req, res) => {
      res.setHeader('Access-Control-Allow-Origin', '*')
      res.setHeader('Access-Control-Allow-Headers', 'authorization, content-type')
      res.setHeader('Access-Control-Allow-Methods', 'POST')
      if (req.method === 'OPTIONS') return res.writeHead(204).end()
      const text = await read(req)
      posted.push({ path: req.url ?? '', auth: req.headers.authorization, body: JSON.parse(text) })
      res.writeHead(201, { 'Content-Type': 'application/json' }).end('{"status":"accepted"}')
    })
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve))
    collectorUrl = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`
    pages = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://page')
      if (url.pathname === '/tis.js') {
        return res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(bundle)
      }
      const release = url.searchParams.get('release') ?? ''
      const script =
        url.pathname === '/throws'
          ? "setTimeout(() => { throw new Error('boom') }, 50)"
          : url.pathname === '/handled'
            ? "client.captureException(new Error('handled'))"
            : ''
      res
        .writeHead(200, { 'Content-Type': 'text/html' })
        .end(html(release, script, url.pathname === '/nav' ? 'navigation' : 'page'))
    })
    await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve))
    pageOrigin = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`
    browser = await launchChromium()
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    for (const server of [pages, collector]) {
      server?.closeAllConnections()
      await new Promise((resolve) => server?.close(resolve))
    }
  })

  const sessionsOf = (release: string) =>
    posted
      .filter((p) => p.path === '/api/v1/sessions' && p.body.session?.attrs.release === release)
      .map((p) => p.body.session)

  it('a clean page load: one init update, then exited on pagehide', async () => {
    const release = `clean-${Date.now()}`
    const page = await browser.newPage()
    await page.goto(`${pageOrigin}/clean?release=${release}`)
    await expect.poll(() => sessionsOf(release).length, { timeout: 10_000 }).toBe(1)
    const [init] = sessionsOf(release)
    expect(init).toMatchObject({
      init: true,
      status: 'ok',
      errors: 0,
      did: 'u-7',
      attrs: { release, environment: 'browser-e2e' },
    })
    expect(init.sid).toMatch(/^[0-9a-f-]{36}$/)
    expect(Date.parse(init.started)).not.toBeNaN()
    expect(posted.find((p) => p.body.session === init)!.auth).toBe('Bearer tis_k')
    await page.goto('about:blank')
    await expect.poll(() => sessionsOf(release).length, { timeout: 10_000 }).toBe(2)
    expect(sessionsOf(release)[1]).toMatchObject({
      sid: init.sid,
      init: false,
      status: 'exited',
      errors: 0,
      did: 'u-7',
    })
    await page.close()
  })

  it('a page that throws: its session is sent as crashed, and nothing after it', async () => {
    const release = `throws-${Date.now()}`
    const page = await browser.newPage()
    await page.goto(`${pageOrigin}/throws?release=${release}`)
    await expect.poll(() => sessionsOf(release).length, { timeout: 10_000 }).toBe(2)
    expect(sessionsOf(release).map((s) => [s.init, s.status])).toEqual([
      [true, 'ok'],
      [false, 'crashed'],
    ])
    await page.goto('about:blank')
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect(sessionsOf(release)).toHaveLength(2)
    await page.close()
  })

  it('a handled error counts into the session, which still exits healthy', async () => {
    const release = `handled-${Date.now()}`
    const page = await browser.newPage()
    await page.goto(`${pageOrigin}/handled?release=${release}`)
    await expect.poll(() => sessionsOf(release).length, { timeout: 10_000 }).toBe(2)
    expect(sessionsOf(release)[1]).toMatchObject({ init: false, status: 'ok', errors: 1 })
    await page.goto('about:blank')
    await expect.poll(() => sessionsOf(release).length, { timeout: 10_000 }).toBe(3)
    expect(sessionsOf(release)[2]).toMatchObject({ status: 'exited', errors: 1 })
    await page.close()
  })

  it('without a release the page sends no session', async () => {
    const before = posted.filter((p) => p.path === '/api/v1/sessions').length
    const page = await browser.newPage()
    await page.goto(`${pageOrigin}/handled`)
    await expect
      .poll(() => posted.filter((p) => p.path === '/api/v1/ingest_events').length)
      .toBeGreaterThan(0)
    await page.goto('about:blank')
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect(posted.filter((p) => p.path === '/api/v1/sessions')).toHaveLength(before)
    await page.close()
  })

  it("sessions: 'navigation' ends the session on pushState and starts another", async () => {
    const release = `nav-${Date.now()}`
    const page = await browser.newPage()
    await page.goto(`${pageOrigin}/nav?release=${release}`)
    await expect.poll(() => sessionsOf(release).length, { timeout: 10_000 }).toBe(1)
    await page.evaluate(() => history.pushState({}, '', '/next'))
    await expect.poll(() => sessionsOf(release).length, { timeout: 10_000 }).toBe(3)
    const [first, ended, second] = sessionsOf(release)
    expect(ended).toMatchObject({ sid: first.sid, status: 'exited', init: false })
    expect(second).toMatchObject({ init: true, status: 'ok' })
    expect(second.sid).not.toBe(first.sid)
    await page.close()
  })
})
