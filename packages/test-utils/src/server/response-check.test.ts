import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ResponseMismatchError, responseCheckMode } from '../response-check/index'
import { call } from './client'

const SESSION = {
  id: '0190c1e2-7a3b-7c00-8000-000000000001',
  created_at: '2026-11-26T10:00:00.000Z',
  last_seen_at: '2026-11-26T10:05:00.000Z',
  expires_at: '2026-12-26T10:00:00.000Z',
  user_agent: 'Mozilla/5.0',
  ip: '127.0.0.1',
}

// A stand-in for the server that answers what the real one must never: the harness client
// checks every answer against the real server's OpenAPI document.
let server: Server
let url: string
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url?.startsWith('/api/v1/users/me/sessions')) {
      // A session as the engine serialises it, plus (with ?extra) one field the schema lacks.
      const session: Record<string, unknown> = { ...SESSION }
      if (req.url.endsWith('?extra')) session['device'] = 'laptop'
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ sessions: [session] }))
      return
    }
    const status = req.url === '/api/v1/projects' ? 418 : 200
    res.writeHead(status, { 'content-type': 'application/json' }).end('{"error":"teapot"}')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise((resolve) => server.close(resolve)))

describe.skipIf(responseCheckMode() !== 'strict')(
  'the harness client (TIS_RESPONSE_CHECK=strict)',
  () => {
    it('throws on an answer the document does not declare, naming operation, status and schema path', async () => {
      const error = await call(url, 'GET', '/api/v1/projects').catch((e: unknown) => e)
      expect(ResponseMismatchError.is(error)).toBe(true)
      expect((error as Error).message).toMatch(
        /^GET \/api\/v1\/projects \(\w+\) answered 418: status 418 is not declared \(declared: .*\) \[schema #\/paths\/~1api~1v1~1projects\/get\/responses\]$/,
      )
    })

    it('throws on a successful answer from an operation the document lacks', async () => {
      const error = await call(url, 'GET', '/api/v1/projects/x/no_such_read').catch(
        (e: unknown) => e,
      )
      expect((error as Error).message).toBe(
        'GET /api/v1/projects/x/no_such_read answered 200: answered, but the document has no such operation [schema #/paths]',
      )
    })

    it('passes an answer as declared, and throws when a serialiser adds an undeclared field', async () => {
      expect((await call(url, 'GET', '/api/v1/users/me/sessions')).status).toBe(200)
      const error = await call(url, 'GET', '/api/v1/users/me/sessions?extra').catch(
        (e: unknown) => e,
      )
      expect(ResponseMismatchError.is(error)).toBe(true)
      expect((error as Error).message).toMatch(/listSessions.*device/)
    })

    it('leaves answers outside the read and management operations alone', async () => {
      expect((await call(url, 'GET', '/health/anything')).status).toBe(200)
    })
  },
)
