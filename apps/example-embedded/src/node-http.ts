import { createServer, type Server } from 'node:http'
import type { EmbeddedEngine } from './engine'
import { sendResponse, toRequest } from './fetch-bridge'

/**
 * The engine behind a plain `node:http` server: every request goes to the engine's Fetch
 * handler (`engine.handle`), which routes it, caps and reads its body, and answers; only the
 * socket's address is the host's to give.
 */
export function createNodeServer(engine: EmbeddedEngine): Server {
  return createServer((req, res) => {
    const ip = req.socket.remoteAddress
    engine
      .handle(toRequest(req), { ip })
      .then((response) => sendResponse(res, response))
      .catch((error: unknown) => {
        // Only the unexpected lands here (e.g. the database is down): log it, answer a bare 500.
        console.error(error)
        if (res.headersSent) return void res.destroy()
        res.writeHead(500, { 'Content-Type': 'application/json' }).end('{"error":"Internal"}')
      })
  })
}
