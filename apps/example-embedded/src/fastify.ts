import Fastify, { type FastifyInstance } from 'fastify'
import type { EmbeddedEngine } from './engine'
import { MAX_BODY_BYTES, ROUTES } from './routes'

/** The engine behind Fastify: every body reaches the engine as raw text, whatever its type. */
export function createFastifyApp(engine: EmbeddedEngine): FastifyInstance {
  const app = Fastify({ bodyLimit: MAX_BODY_BYTES })
  // The engine parses JSON itself, so malformed JSON gets tis's own 400, not Fastify's.
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body))

  for (const route of ROUTES) {
    const operation = route.operation(engine)
    app.route({
      method: route.method,
      url: route.path,
      handler: async (req, reply) => {
        const response = await operation({
          headers: req.headers,
          // A compressed body goes as bytes, which the engine inflates with `zlibInflater`.
          ...body(req.headers['content-encoding'], req.body),
          params: req.params as Record<string, string>,
          query: req.query as Record<string, string>,
          ip: req.ip,
        })
        reply.code(response.status).headers(response.headers)
        if (response.body === null) return reply.send()
        // A Buffer goes out byte for byte; a string would get `; charset=utf-8` appended.
        const json = Buffer.from(JSON.stringify(response.body))
        return reply.header('content-type', 'application/json').send(json)
      },
    })
  }
  return app
}

/** The body for the engine: bytes when compressed, else its UTF-8 text. */
function body(
  encoding: string | undefined,
  raw: unknown,
): { bytes: Uint8Array } | { text: string } {
  const bytes = Buffer.isBuffer(raw) ? raw : Buffer.alloc(0)
  const coding = (encoding ?? '').trim().toLowerCase()
  return coding === '' || coding === 'identity' ? { text: bytes.toString('utf8') } : { bytes }
}
