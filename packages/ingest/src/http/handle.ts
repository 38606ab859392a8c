import type { EngineRequest, EngineResponse } from '../http'
import { OTLP_MAX_BODY_BYTES } from '../ingest/otlp'
import { DEFAULT_MAX_BODY_BYTES } from '../ingest/request-body'
import { chunkBodyCap, DEFAULT_SOURCE_MAP_LIMITS } from '../sourcemaps/upload-limits'
import { createCors } from './cors'
import { type BodyCap, HTTP_OPERATIONS, type HttpOperation, type ServedApis } from './operations'
import { readBody } from './read-body'
import { createRouter } from './router'
import { jsonResponse, toResponse } from './to-response'

/** Options of {@link createHttpHandler}. */
export interface HttpHandlerOptions {
  /**
   * Largest request body as sent, in bytes (`SERVICE_MAX_BODY_BYTES`); larger ones get 413,
   * a declared one before it is read, a streamed one as soon as it passes the cap.
   * @default 1048576
   */
  readonly maxBodyBytes?: number
  /**
   * Largest body of `POST /api/v1/ingest_events/batch` as sent (`SERVICE_BATCH_MAX_BODY_BYTES`).
   * @default maxBodyBytes
   */
  readonly maxBatchBodyBytes?: number
  /**
   * Largest body of a source-map upload as sent: one chunk plus 64 KiB, or `maxBodyBytes` when
   * larger. @default chunkBodyCap(DEFAULT_SOURCE_MAP_LIMITS)
   */
  readonly maxChunkBodyBytes?: number
  /**
   * Origins whose pages may call the browser-facing ingest operations (`SERVICE_CORS_ORIGINS`);
   * `['*']` allows any. @default ['*']
   */
  readonly corsOrigins?: readonly string[]
  /**
   * The OpenAPI document (JSON text, or a function making it on the first request for it)
   * served at `GET /api/v1/openapi.json`. @default not served
   */
  readonly openApi?: string | (() => string)
}

/** What the host knows of one request beyond the request itself. */
export interface HandleContext {
  /** The client address (from the socket, or a trusted proxy's `X-Forwarded-For`). */
  readonly ip?: string | undefined
  /**
   * The answer to an error an operation threw (the host's: e.g. 503 for a database that is
   * down); it still gets the CORS headers. Without it the error is thrown to the host.
   */
  readonly onError?: (error: unknown) => Response | Promise<Response>
}

/** Answers one HTTP request of the engine's interface (see {@link createHttpHandler}). */
export type HttpHandler = (request: Request, context?: HandleContext) => Promise<Response>

type Run = (request: EngineRequest) => EngineResponse | Promise<EngineResponse>
type Served = HttpOperation & { readonly run: Run }

const HEALTHY: EngineResponse = { status: 200, headers: {}, body: { status: 'ok' } }

/** The operations of the table whose function `apis` has, each bound to it. */
function served(apis: ServedApis, openApi: HttpHandlerOptions['openApi']): Served[] {
  const out: Served[] = []
  if (openApi !== undefined) {
    let document: EngineResponse | undefined
    const run = () => {
      if (document === undefined) {
        const body = new TextEncoder().encode(typeof openApi === 'string' ? openApi : openApi())
        document = { status: 200, headers: { 'Content-Type': 'application/json' }, body }
      }
      return document
    }
    out.push({
      ...{ method: 'GET', path: '/api/v1/openapi.json', id: 'openApi', api: 'health' },
      ...{ call: '', body: 'none', cap: 'body', run },
    })
  }
  for (const op of HTTP_OPERATIONS) {
    if (op.api === 'health') out.push({ ...op, run: () => HEALTHY })
    else if (op.api === 'readiness') {
      const readiness = apis.readiness
      if (readiness) out.push({ ...op, run: () => readiness() })
    } else {
      const api = apis[op.api] as Record<string, unknown> | undefined
      const fn = api?.[op.call]
      if (typeof fn !== 'function') continue
      const arg = op.arg
      out.push({ ...op, run: (request) => fn.call(api, request, arg) })
    }
  }
  return out
}

type Url = { readonly path: string; readonly search: string }

/** The path and the query string (without `?`) of an absolute request URL. */
function splitUrl(url: string): Url {
  const start = url.indexOf('/', url.indexOf('://') + 3)
  if (start === -1) return { path: '/', search: '' }
  const query = url.indexOf('?', start)
  return query === -1
    ? { path: url.slice(start), search: '' }
    : { path: url.slice(start, query), search: url.slice(query + 1) }
}

/** The query parameters, the first value of each name. */
function queryOf(search: string): Record<string, string> {
  const query: Record<string, string> = Object.create(null)
  if (search === '') return query
  for (const [name, value] of new URLSearchParams(search)) query[name] ??= value
  return query
}

function renamed(params: Record<string, string>, rename: HttpOperation['rename']) {
  if (!rename) return params
  for (const [from, to] of Object.entries(rename)) {
    const value = params[from]
    if (!value) continue
    delete params[from]
    params[to] = value
  }
  return params
}

/**
 * Makes the engine's HTTP handler from the one operation table over `apis`: routes a Fetch
 * `Request` to its operation, answering JSON 404 for an unknown path, 405 with `Allow` for a
 * known path's other methods (HEAD comes with GET, OPTIONS on the CORS paths), 413 with
 * `Connection: close` for a body over its cap (declared, or counted as it streams in), a 204
 * preflight and the CORS headers on the browser-facing ingest paths; the body reaches the
 * operation as text or bytes as the table says, with the client IP the host passes.
 */
export function createHttpHandler(apis: ServedApis, options: HttpHandlerOptions = {}): HttpHandler {
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES
  const caps: Record<BodyCap, number> = {
    body: maxBodyBytes,
    batch: options.maxBatchBodyBytes ?? maxBodyBytes,
    chunk: Math.max(
      maxBodyBytes,
      options.maxChunkBodyBytes ?? chunkBodyCap(DEFAULT_SOURCE_MAP_LIMITS),
    ),
    otlp: Math.max(maxBodyBytes, OTLP_MAX_BODY_BYTES),
  }
  const router = createRouter(served(apis, options.openApi))
  const cors = createCors(options.corsOrigins ?? ['*'])
  const tooLarge = (cap: number) =>
    jsonResponse(
      413,
      { error: `request body is too large (maximum is ${cap} bytes)` },
      // The rest of the body is not read, so the connection cannot carry another request.
      { Connection: 'close' },
    )

  type Found = ReturnType<typeof router.match>
  const answer = async (request: Request, match: Found, url: Url, ip: string | undefined) => {
    const { path, search } = url
    const first = match?.operation ?? match?.route.operations.values().next().value
    const capKind = first?.cap ?? 'body'
    const cap = caps[capKind]
    const length = request.headers.get('content-length')
    const declared = length !== null && /^\d+$/.test(length)
    if (declared && (path.startsWith('/api/') || capKind === 'otlp') && Number(length) > cap) {
      return tooLarge(cap)
    }
    if (match === undefined) return jsonResponse(404, { error: 'Not found' })
    const op = match.operation
    if (op === undefined) {
      return jsonResponse(405, { error: 'Method not allowed' }, { Allow: match.route.allow })
    }
    const head = request.method === 'HEAD'
    const body =
      request.method === 'GET' || head
        ? op.body === 'none'
          ? {}
          : op.body === 'bytes'
            ? { bytes: new Uint8Array() }
            : { text: '' }
        : await readBody(request, op.body, cap, declared)
    if (body === 'too-large') return tooLarge(cap)
    const engineRequest: EngineRequest = {
      headers: request.headers,
      ...(ip === undefined ? {} : { ip }),
      ...(op.params ? { params: renamed(match.params, op.rename), query: queryOf(search) } : {}),
      ...body,
    }
    return toResponse(await op.run(engineRequest), head)
  }

  return async (request, context = {}) => {
    const url = splitUrl(request.url)
    const match = router.match(request.method, url.path)
    const corsPath = match?.route.cors === true
    const origin = corsPath ? request.headers.get('origin') : null
    let response: Response
    if (corsPath && request.method === 'OPTIONS') response = new Response(null, { status: 204 })
    else {
      try {
        response = await answer(request, match, url, context.ip)
      } catch (error) {
        if (!context.onError) throw error
        response = await context.onError(error)
      }
    }
    if (corsPath) cors(response.headers, origin)
    return response
  }
}
