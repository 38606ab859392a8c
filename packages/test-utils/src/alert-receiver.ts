import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

/** A request the receiver got, body as raw bytes. */
export interface ReceivedRequest {
  readonly method: string
  readonly path: string
  readonly headers: IncomingHttpHeaders
  readonly body: Buffer
}

/**
 * How the receiver answers one request: a status (with headers, after `delayMs`), or never
 * (`'hang'`).
 */
export type ReceiverAnswer =
  | number
  | { status: number; headers?: Record<string, string>; delayMs?: number }
  | 'hang'

/** A real HTTP server on a local port that records what alert deliveries post to it. */
export interface AlertReceiver {
  /** `http://127.0.0.1:PORT/hook`. */
  readonly url: string
  readonly requests: ReceivedRequest[]
  /** Queues the answers of the next requests, in order; then 200. */
  answer(...answers: ReceiverAnswer[]): void
  /** Forgets the requests and the queued answers, and listens if stopped. */
  reset(): Promise<void>
  /** Closes the port (connections refused) until {@link start}. */
  stop(): Promise<void>
  /** Listens again on the same port. */
  start(): Promise<void>
  close(): Promise<void>
}

/** Starts an {@link AlertReceiver} on a free port of 127.0.0.1. */
export async function startAlertReceiver(): Promise<AlertReceiver> {
  const requests: ReceivedRequest[] = []
  const queue: ReceiverAnswer[] = []
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks)
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body })
      const answer = queue.shift() ?? 200
      if (answer === 'hang') return
      const {
        status,
        headers = {},
        delayMs = 0,
      } = typeof answer === 'number' ? { status: answer } : answer
      setTimeout(() => {
        // No keep-alive: a pooled connection the server times out while a later test sends on
        // it would fail that send at random.
        res.writeHead(status, { ...headers, Connection: 'close' })
        res.end(status === 204 ? undefined : 'ok')
      }, delayMs)
    })
  })
  let port = 0
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(port, '127.0.0.1', () => {
        port = (server.address() as AddressInfo).port
        server.off('error', reject)
        resolve()
      })
    })
  const stop = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve())
      server.closeAllConnections()
    })
  await listen()
  return {
    url: `http://127.0.0.1:${port}/hook`,
    requests,
    answer: (...answers) => queue.push(...answers),
    async reset() {
      requests.length = 0
      queue.length = 0
      if (!server.listening) await listen()
    },
    stop,
    start: listen,
    close: () => (server.listening ? stop() : Promise.resolve()),
  }
}

const ALERTS_DOC = fileURLToPath(new URL('../../../docs/alerts.md', import.meta.url))

/** The signature check docs/alerts.md shows: `verifyTisSignature(rawBody, header, secret)`. */
export type VerifyTisSignature = (rawBody: Buffer, header: unknown, secret: string) => boolean

/**
 * Loads the ```` ```js verify-signature ```` block of docs/alerts.md as a module, so tests run
 * the very code the documentation shows receivers.
 */
export async function loadDocumentedVerifier(): Promise<VerifyTisSignature> {
  const doc = await readFile(ALERTS_DOC, 'utf8')
  const code = /^```js verify-signature\n([\s\S]*?)^```/m.exec(doc)?.[1]
  if (!code) throw new Error('docs/alerts.md has no ```js verify-signature block')
  const file = join(await mkdtemp(join(tmpdir(), 'tis-verify-')), 'verify.mjs')
  await writeFile(file, code)
  const module = (await import(pathToFileURL(file).href)) as { verifyTisSignature?: unknown }
  if (typeof module.verifyTisSignature !== 'function') {
    throw new Error('the documented snippet exports no verifyTisSignature function')
  }
  return module.verifyTisSignature as VerifyTisSignature
}
