import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { bundleForPage } from '@tis/test-utils/page-bundle'

const APP_FILE = new URL('../fixtures/sentry-browser-app.js', import.meta.url)

/** The page's application script, as served (`/app.js`): the frames point into it. */
export const APP_SOURCE = readFileSync(APP_FILE, 'utf8')

const HTML = `<!doctype html><html><head><title>shop</title>
<script src="/sentry.js"></script><script src="/app.js"></script>
</head><body><h1>Checkout</h1></body></html>`

/** A listening page server: the origin the browser application runs on. */
export interface SentryBrowserPage {
  /** e.g. `http://127.0.0.1:41234` — another origin than the tis server's. */
  readonly origin: string
  /** The same server by another host name (`localhost`): another origin of the same site. */
  readonly otherOrigin: string
  close(): Promise<void>
}

/** @sentry/browser from node_modules, bundled for the page as the global `Sentry`. */
export const bundleSentryBrowser = () =>
  bundleForPage(
    `export * from '@sentry/browser'`,
    fileURLToPath(new URL('..', import.meta.url)),
    'Sentry',
  )

/** Serves the page (`/`), the SDK (`/sentry.js`) and the application (`/app.js`). */
export async function startSentryBrowserPage(): Promise<SentryBrowserPage> {
  const sdk = await bundleSentryBrowser()
  const files: Record<string, [type: string, body: string]> = {
    '/': ['text/html', HTML],
    '/sentry.js': ['text/javascript', sdk],
    '/app.js': ['text/javascript', APP_SOURCE],
    '/favicon.ico': ['image/x-icon', ''],
  }
  const server = createServer((req, res) => {
    const file = files[new URL(req.url ?? '/', 'http://page').pathname]
    if (file) res.writeHead(200, { 'Content-Type': file[0] }).end(file[1])
    else res.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return {
    origin: `http://127.0.0.1:${port}`,
    otherOrigin: `http://localhost:${port}`,
    async close() {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}
