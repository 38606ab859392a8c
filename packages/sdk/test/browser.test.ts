import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { describeWithChromium, launchChromium } from '@tis/test-utils/chromium'
import { build } from 'esbuild'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { mangleProps } from '../mangle'

// A page script, so stack frames point at the page's URL as they do in real applications.
const PAGE = `<!doctype html><script src="/sdk.js"></script><script>
function thrower() { throw new TypeError('from the page') }
</script>`

// The bundled core in a real headless Chromium: captures, flush, Chrome stack frames, and the
// pagehide flush that must get every queued record out while the page unloads.
// Without Chromium the suite is skipped locally and fails in CI (describeWithChromium).
describeWithChromium('in a browser (headless Chromium, apt-get install chromium)', () => {
  let browser: Browser
  let server: Server
  let base: string
  let bundle: string
  const received: { path: string; body: Record<string, Record<string, unknown>> }[] = []
  let answerDelayMs = 0

  beforeAll(async () => {
    const result = await build({
      entryPoints: [fileURLToPath(new URL('../src/index.ts', import.meta.url))],
      bundle: true,
      format: 'iife',
      globalName: 'tis',
      platform: 'browser',
      target: 'es2022',
      mangleProps,
      write: false,
      logLevel: 'silent',
    })
    bundle = result.outputFiles[0]!.text
    server = createServer((req, res) => {
      if (req.method === 'GET') {
        res.writeHead(200, {
          'Content-Type': req.url === '/sdk.js' ? 'text/javascript' : 'text/html',
        })
        res.end(req.url === '/sdk.js' ? bundle : PAGE)
        return
      }
      let body = ''
      req.on('data', (chunk) => {
        body += chunk
      })
      req.on('end', () => {
        setTimeout(() => {
          // A batch (NDJSON) is recorded line by line, as if each record came alone.
          const path = (req.url ?? '').replace(/\/batch$/, '')
          const lines = body.split('\n').filter(Boolean)
          for (const line of lines) received.push({ path, body: JSON.parse(line) })
          const batch = req.url?.endsWith('/batch')
          res
            .writeHead(batch ? 200 : 201, { 'Content-Type': 'application/json' })
            .end(
              batch
                ? JSON.stringify({ results: lines.map((_, index) => ({ index, status: 201 })) })
                : '{"status":"accepted"}',
            )
        }, answerDelayMs)
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    browser = await launchChromium()
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    server?.closeAllConnections()
    await new Promise((resolve) => server?.close(resolve))
  })

  async function open(): Promise<Page> {
    const page = await browser.newPage()
    await page.goto(`${base}/`)
    await page.waitForFunction(() => 'tis' in globalThis)
    return page
  }

  it('captures and flushes; errors carry Chrome stack frames', async () => {
    received.length = 0
    answerDelayMs = 0
    const page = await open()
    const result = await page.evaluate(async (baseUrl) => {
      // biome-ignore lint/suspicious/noExplicitAny: the IIFE global of the bundle
      const { createClient } = (globalThis as any).tis
      const client = createClient({ baseUrl, apiKey: 'tis_browser', environment: 'browser' })
      try {
        // biome-ignore lint/suspicious/noExplicitAny: defined by the page's own script
        ;(globalThis as any).thrower()
      } catch (error) {
        client.captureException(error)
      }
      client.captureMessage('hello from the page', { level: 'info' })
      client.captureSpan('page load', 120, { kind: 'browser' })
      return client.flush(5000)
    }, base)
    expect(result).toEqual({ sent: 3, duplicates: 0, dropped: {}, pending: 0 })
    const error = received.find((r) => r.body['event']?.['event_type'] === 'error')!
    const exception = (error.body['event']!['context'] as Record<string, Record<string, unknown>>)[
      'exception'
    ]!
    expect(exception['class']).toBe('TypeError')
    expect((exception['frames'] as Record<string, unknown>[])[0]).toMatchObject({
      function: 'thrower',
      filename: `${base}/`,
      lineno: 2,
    })
    await page.close()
  })

  it('gets every queued record out on pagehide (keepalive), past the concurrency limit', async () => {
    received.length = 0
    answerDelayMs = 300
    const page = await open()
    await page.evaluate((baseUrl) => {
      // biome-ignore lint/suspicious/noExplicitAny: the IIFE global of the bundle
      const { createClient } = (globalThis as any).tis
      const client = createClient({
        baseUrl,
        apiKey: 'tis_browser',
        transportOptions: { concurrency: 1 },
      })
      for (let i = 0; i < 4; i++) client.captureMessage(`unload ${i}`)
    }, base)
    await page.goto('about:blank')
    await expect.poll(() => received.length, { timeout: 5000 }).toBe(4)
    await page.close()
  })
})
