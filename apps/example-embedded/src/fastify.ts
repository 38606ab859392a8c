import Fastify, { type FastifyInstance } from 'fastify'
import type { EmbeddedEngine } from './engine'
import { toRequest } from './fetch-bridge'

/**
 * The engine behind Fastify: one catch-all route hands the raw request to the engine's Fetch
 * handler (`engine.handle`), which routes it and reads, caps and parses the body itself (so
 * malformed JSON gets tis's own 400, not Fastify's).
 */
export function createFastifyApp(engine: EmbeddedEngine): FastifyInstance {
  const app = Fastify({ exposeHeadRoutes: false })
  // Leave every body unread on the socket: the engine streams it.
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('*', (_req, _payload, done) => done(null))
  app.all('/*', async (req, reply) => {
    const response = await engine.handle(toRequest(req.raw), { ip: req.ip })
    reply.code(response.status).headers(Object.fromEntries(response.headers))
    // A Buffer goes out byte for byte; a string would get `; charset=utf-8` appended.
    return reply.send(
      response.body === null ? undefined : Buffer.from(await response.arrayBuffer()),
    )
  })
  return app
}
