import { gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import type { EngineRequest, EngineResponse } from '../http'
import { createHttpHandler, type HttpHandlerOptions } from './handle'
import type { ServedApis } from './operations'

// The handler over recording fakes: what each operation gets, and every answer of the wire
// itself (404, 405, 413, CORS, HEAD) that no operation is asked for.

const ok: EngineResponse = {
  status: 201,
  headers: { 'X-RateLimit-Remaining': '4' },
  body: { ok: 1 },
}

function setup(options: HttpHandlerOptions = {}, answer: () => EngineResponse = () => ok) {
  const calls: { name: string; request: EngineRequest; arg?: unknown }[] = []
  const op =
    (name: string) =>
    async (request: EngineRequest, arg?: unknown): Promise<EngineResponse> => {
      calls.push({ name, request, ...(arg === undefined ? {} : { arg }) })
      return answer()
    }
  const apis = {
    ingest: {
      ingestEvent: op('ingestEvent'),
      ingestEventBatch: op('ingestEventBatch'),
      ingestSentry: op('ingestSentry'),
      ingestOtlp: op('ingestOtlp'),
    },
    management: { listProjects: op('listProjects'), revokeApiKey: op('revokeApiKey') },
    sourceMaps: { uploadChunks: op('uploadChunks'), createRelease: op('createRelease') },
    readiness: op('readiness'),
  } as unknown as ServedApis
  return { handle: createHttpHandler(apis, options), calls }
}

const post = (body: RequestInit['body'], headers: Record<string, string> = {}) =>
  ({ method: 'POST', body, headers, duplex: 'half' }) as RequestInit
const req = (path: string, init?: RequestInit) => new Request(`http://tis.test${path}`, init)

/** A chunked body: `count` chunks of `size` bytes, no Content-Length. */
function stream(count: number, size: number): ReadableStream<Uint8Array> {
  let sent = 0
  return new ReadableStream({
    pull(controller) {
      if (sent++ < count) controller.enqueue(new Uint8Array(size).fill(120))
      else controller.close()
    },
  })
}

describe('createHttpHandler: routing', () => {
  it('answers an unknown path with a JSON 404 and asks no operation', async () => {
    const { handle, calls } = setup()
    const res = await handle(req('/api/v1/nope'))
    expect(res.status).toBe(404)
    expect(res.headers.get('content-type')).toBe('application/json')
    expect(await res.json()).toEqual({ error: 'Not found' })
    expect(calls).toEqual([])
  })

  it.each([
    ['PUT', '/api/v1/projects', 'GET, HEAD'],
    ['GET', '/api/v1/ingest_events', 'OPTIONS, POST'],
    ['DELETE', '/health', 'GET, HEAD'],
    ['PATCH', '/api/v1/projects/a/api_keys/b', 'DELETE'],
  ])('%s %s is a 405 with Allow: %s', async (method, path, allow) => {
    const { handle, calls } = setup()
    const res = await handle(req(path, { method }))
    expect(res.status).toBe(405)
    expect(res.headers.get('allow')).toBe(allow)
    expect(await res.json()).toEqual({ error: 'Method not allowed' })
    expect(calls).toEqual([])
  })

  it('routes only the operations the APIs have (an embedded engine serves a subset)', async () => {
    const { handle } = setup()
    expect((await handle(req('/api/v1/check_ins', post('{}')))).status).toBe(404)
  })

  it('passes path and query parameters (first value of a name), renamed where the table says', async () => {
    const { handle, calls } = setup()
    await handle(req('/api/v1/projects?limit=5&limit=6&q=a%20b', { method: 'GET' }))
    expect(calls[0]?.request.query).toEqual({ limit: '5', q: 'a b' })
    await handle(req('/api/v1/projects/p%201/api_keys/k', { method: 'DELETE' }))
    expect(calls[1]?.request.params).toEqual({ id: 'p 1', key_id: 'k' })
    await handle(req('/api/0/projects/org/7/releases/', post('{}')))
    expect(calls[2]?.request.params).toEqual({ org: 'org', project: '7' })
  })

  it('gives Sentry and OTLP their endpoint, the bytes and the client IP', async () => {
    const { handle, calls } = setup()
    await handle(req('/api/42/envelope/', post('{}')), { ip: '203.0.113.9' })
    await handle(req('/v1/logs', post('{}')))
    expect(calls.map((c) => [c.name, c.arg])).toEqual([
      ['ingestSentry', 'envelope'],
      ['ingestOtlp', 'logs'],
    ])
    expect(calls[0]?.request).toMatchObject({ ip: '203.0.113.9', params: { project: '42' } })
    expect(calls[0]?.request.bytes).toBeInstanceOf(Uint8Array)
    expect(calls[1]?.request.ip).toBeUndefined()
  })

  it('gives a native ingest body as text, or as bytes when compressed (decoded by the API)', async () => {
    const { handle, calls } = setup()
    await handle(req('/api/v1/ingest_events', post('{"event": x')))
    const zipped = gzipSync('{}')
    await handle(req('/api/v1/ingest_events', post(zipped, { 'Content-Encoding': 'gzip' })))
    expect(calls[0]?.request).toMatchObject({ text: '{"event": x' })
    expect(calls[1]?.request.bytes).toEqual(new Uint8Array(zipped))
    expect(calls[1]?.request.text).toBeUndefined()
  })

  it("writes the engine's answer out exactly, and a HEAD without its body", async () => {
    const { handle } = setup()
    const res = await handle(req('/api/v1/ingest_events', post('{}')))
    expect(res.status).toBe(201)
    expect(res.headers.get('x-ratelimit-remaining')).toBe('4')
    expect(res.headers.get('content-type')).toBe('application/json')
    expect(await res.json()).toEqual({ ok: 1 })
    const head = await handle(req('/health/ready', { method: 'HEAD' }))
    expect(head.status).toBe(201)
    expect(await head.text()).toBe('')
    const health = await handle(req('/health'))
    expect(await health.json()).toEqual({ status: 'ok' })
  })
})

describe('createHttpHandler: body caps', () => {
  const small = { maxBodyBytes: 64, maxBatchBodyBytes: 128, maxChunkBodyBytes: 256 }
  const message = (cap: number) => ({
    error: `request body is too large (maximum is ${cap} bytes)`,
  })

  it.each([
    ['/api/v1/ingest_events', 64],
    ['/api/v1/ingest_events/batch', 128],
    ['/api/0/organizations/o/chunk-upload/', 256],
    ['/api/v1/nope', 64],
  ])(
    'refuses a declared Content-Length over the cap of %s (%i) before reading',
    async (path, cap) => {
      const { handle, calls } = setup(small)
      const body = 'x'.repeat(cap + 1)
      const over = await handle(req(path, post(body, { 'Content-Length': String(body.length) })))
      expect(over.status).toBe(413)
      expect(over.headers.get('connection')).toBe('close')
      expect(await over.json()).toEqual(message(cap))
      expect(calls).toEqual([])
      if (path !== '/api/v1/nope') {
        expect((await handle(req(path, post('x'.repeat(cap))))).status).toBe(201)
      }
    },
  )

  it('counts a streamed (chunked) body as it arrives and stops at the cap', async () => {
    const { handle, calls } = setup(small)
    const over = await handle(req('/api/v1/ingest_events', post(stream(3, 30))))
    expect(over.status).toBe(413)
    expect(await over.json()).toEqual(message(64))
    expect(calls).toEqual([])
    const batch = await handle(req('/api/v1/ingest_events/batch', post(stream(4, 30))))
    expect(batch.status).toBe(201)
    expect(calls[0]?.request.bytes?.byteLength).toBe(120)
  })
})

describe('createHttpHandler: CORS on the browser-facing ingest paths', () => {
  const PAGE = 'https://shop.example'
  const preflight = (origin: string) =>
    req('/api/v1/ingest_events', { method: 'OPTIONS', headers: { Origin: origin } })

  it('answers a preflight 204 with the CORS headers, and puts them on every answer', async () => {
    const { handle } = setup({ maxBodyBytes: 8 })
    const res = await handle(preflight(PAGE))
    expect(res.status).toBe(204)
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    expect(res.headers.get('access-control-allow-methods')).toBe('POST, OPTIONS')
    const big = await handle(req('/api/v1/ingest_events', post('x'.repeat(9), { Origin: PAGE })))
    expect(big.status).toBe(413)
    expect(big.headers.get('access-control-allow-origin')).toBe('*')
  })

  it("puts them on the host's answer to an operation's error", async () => {
    const { handle } = setup({}, () => {
      throw new Error('boom')
    })
    const onError = () => new Response('{}', { status: 503 })
    const res = await handle(req('/api/v1/ingest_events', post('{}')), { onError })
    expect(res.status).toBe(503)
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    await expect(handle(req('/api/v1/ingest_events', post('{}')))).rejects.toThrow('boom')
  })

  it('echoes a listed origin with Vary: Origin, and leaves a disallowed one without', async () => {
    const { handle } = setup({ corsOrigins: [PAGE] })
    const allowed = await handle(preflight(PAGE))
    expect(allowed.headers.get('access-control-allow-origin')).toBe(PAGE)
    expect(allowed.headers.get('vary')).toBe('Origin')
    const evil = await handle(preflight('https://evil.example'))
    expect(evil.headers.get('access-control-allow-origin')).toBeNull()
    expect(evil.headers.get('vary')).toBe('Origin')
  })

  it('leaves the management API without CORS: a preflight there is a 405', async () => {
    const { handle } = setup()
    const res = await handle(
      req('/api/v1/projects', { method: 'OPTIONS', headers: { Origin: PAGE } }),
    )
    expect(res.status).toBe(405)
    expect(res.headers.get('access-control-allow-origin')).toBeNull()
  })
})
