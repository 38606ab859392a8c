import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { EngineResponse } from '@tis/ingest'
import type { EmbeddedEngine } from './engine'
import { MAX_BODY_BYTES, ROUTES } from './routes'

// `/api/v1/projects/:id` → /^\/api\/v1\/projects\/(?<id>[^/]+)$/
const compiled = ROUTES.map((route) => ({
  route,
  pattern: new RegExp(`^${route.path.replace(/:(\w+)/g, '(?<$1>[^/]+)')}$`),
}))

/** The engine behind a plain `node:http` server: route, read the body as text, write the answer. */
export function createNodeServer(engine: EmbeddedEngine): Server {
  return createServer((req, res) => {
    handle(engine, req, res).catch((error: unknown) => {
      // Only the unexpected lands here (e.g. the database is down): log it, answer a bare 500.
      console.error(error)
      if (!res.headersSent) send(res, { status: 500, headers: {}, body: { error: 'Internal' } })
      else res.destroy()
    })
  })
}

async function handle(engine: EmbeddedEngine, req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? '/', 'http://localhost')
  let params: Record<string, string> | undefined
  const match = compiled.find(({ route, pattern }) => {
    const found = route.method === req.method && pattern.exec(url.pathname)
    if (found) params = { ...found.groups }
    return found
  })
  if (!match) return send(res, { status: 404, headers: {}, body: { error: 'Not found' } })
  const raw = await readBytes(req)
  if (raw === undefined) {
    const error = `request body exceeds ${MAX_BODY_BYTES} bytes`
    return send(res, { status: 413, headers: { Connection: 'close' }, body: { error } })
  }
  const response = await match.route.operation(engine)({
    headers: req.headers,
    // A compressed body goes as bytes, which the engine inflates with `zlibInflater`.
    ...(compressed(req) ? { bytes: raw } : { text: raw.toString('utf8') }),
    params: params ?? {},
    query: Object.fromEntries(url.searchParams),
    ...(req.socket.remoteAddress ? { ip: req.socket.remoteAddress } : {}),
  })
  send(res, response)
}

/** Whether the body comes with a `Content-Encoding` other than `identity`. */
function compressed(req: IncomingMessage): boolean {
  const encoding = (req.headers['content-encoding'] ?? '').trim().toLowerCase()
  return encoding !== '' && encoding !== 'identity'
}

/** The body's bytes, or `undefined` once they pass {@link MAX_BODY_BYTES}. */
async function readBytes(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > MAX_BODY_BYTES) return undefined
    chunks.push(chunk)
  }
  return Buffer.concat(chunks)
}

function send(res: ServerResponse, response: EngineResponse) {
  if (response.body === null) {
    res.writeHead(response.status, response.headers).end()
    return
  }
  res
    .writeHead(response.status, { ...response.headers, 'Content-Type': 'application/json' })
    .end(JSON.stringify(response.body))
}
