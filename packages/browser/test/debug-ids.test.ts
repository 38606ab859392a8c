import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describeWithChromium, launchChromium } from '@tis/test-utils/chromium'
import { bundleForPage } from '@tis/test-utils/page-bundle'
import { build } from 'esbuild'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'

// The real `sentry-cli` (the server's test client) writes the debug ID into the bundle.
const SENTRY_CLI = fileURLToPath(
  new URL('../../../apps/server/node_modules/sentry-cli-2/bin/sentry-cli', import.meta.url),
)

// The application: its own minified bundle with a source map, as a build would ship it.
const APP = `function explode(input) { throw new Error('boom ' + input) }
export function checkout() {
  try { explode(3) } catch (error) { globalThis.tisClient.captureException(error) }
}
globalThis.checkout = checkout`

const PAGE = `<!doctype html><script src="/tis.js"></script>
<script>globalThis.tisClient = tis.createClient({ baseUrl: location.origin, apiKey: 'tis_browser',
  integrations: [tis.debugIdsIntegration()] })</script>
<script src="/assets/app.min.js"></script>`

// An esbuild bundle injected by `sentry-cli sourcemaps inject` raises an error in headless
// Chromium; the event the page sends names the bundle's URL with the injected debug ID.
describeWithChromium('debug IDs in headless Chromium (sentry-cli sourcemaps inject)', () => {
  let browser: Browser
  let server: Server
  let base: string
  let dir: string
  let tis: string
  let app: string
  let debugId: string
  const events: Record<string, Record<string, unknown>>[] = []

  beforeAll(async () => {
    expect(existsSync(SENTRY_CLI), `${SENTRY_CLI} (apps/server devDependency)`).toBe(true)
    dir = mkdtempSync(join(tmpdir(), 'tis-debug-ids-'))
    await build({
      stdin: { contents: APP, loader: 'js' },
      bundle: true,
      minify: true,
      sourcemap: true,
      format: 'iife',
      outfile: join(dir, 'app.min.js'),
      logLevel: 'silent',
    })
    execFileSync(SENTRY_CLI, ['sourcemaps', 'inject', dir], { stdio: 'pipe' })
    app = readFileSync(join(dir, 'app.min.js'), 'utf8')
    debugId = /\/\/# debugId=([0-9a-f-]{36})/.exec(app)![1]!
    expect(app).toContain('_sentryDebugIds')
    tis = await bundleForPage(
      `export * from '@tis/sdk'\nexport * from './src/index.ts'`,
      fileURLToPath(new URL('..', import.meta.url)),
      'tis',
    )
    server = createServer((req, res) => {
      if (req.method === 'POST') {
        let body = ''
        req.on('data', (chunk) => {
          body += chunk
        })
        req.on('end', () => {
          for (const line of body.split('\n').filter(Boolean)) events.push(JSON.parse(line).event)
          res.writeHead(201, { 'Content-Type': 'application/json' }).end('{"status":"accepted"}')
        })
        return
      }
      const js = { '/tis.js': tis, '/assets/app.min.js': app }[req.url ?? '']
      res.writeHead(200, { 'Content-Type': js ? 'text/javascript' : 'text/html' })
      res.end(js ?? PAGE)
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    browser = await launchChromium()
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    server?.closeAllConnections()
    await new Promise((resolve) => server?.close(resolve))
    rmSync(dir, { recursive: true, force: true })
  })

  it('the error event carries the injected debug ID for the bundle URL', async () => {
    const page = await browser.newPage()
    await page.goto(`${base}/`)
    await page.waitForFunction(() => 'checkout' in globalThis)
    const result = await page.evaluate(() => {
      // biome-ignore lint/suspicious/noExplicitAny: globals defined by the page
      const g = globalThis as any
      g.checkout()
      return g.tisClient.flush(5000)
    })
    expect(result).toMatchObject({ sent: 1, pending: 0 })
    const context = events[0]!['context'] as Record<string, Record<string, unknown>>
    const frames = context['exception']!['frames'] as { filename: string }[]
    const url = `${base}/assets/app.min.js`
    expect(frames[0]!.filename).toBe(url)
    expect(context['debug_meta']).toEqual({
      images: [{ type: 'sourcemap', code_file: url, debug_id: debugId }],
    })
    await page.close()
  })
})
