import { createDashboard } from '@tis/dashboard'
import { chunkBodyCap, DEFAULT_SOURCE_MAP_LIMITS, StoreError } from '@tis/ingest'
import type { Context, MiddlewareHandler } from 'hono'
import { Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { HTTPException } from 'hono/http-exception'
import { type RequestIdVariables, requestId } from 'hono/request-id'
import type { AnalyticsRuntime } from './analytics'
import { createClientIpResolver } from './client-ip'
import type { ServerEngine } from './compose'
import { createDocsApp, DEFAULT_DOCS_DIR } from './docs'
import type { Logger } from './logger'
import { serverOpenApiDocument } from './openapi'
import { sendEngineResponse, sendJson } from './respond'
import {
  accountRoutes,
  alertRoutes,
  ingestRoutes,
  managementRoutes,
  OTLP_PATHS,
  type RouteSpec,
  readRoutes,
  SENTRY_PATHS,
  sourceMapRoutes,
  sourceSettingsRoutes,
  UPLOAD_BODY_PATH,
} from './routes'

/** Options of {@link createApp}. */
export interface AppOptions {
  /** The composed APIs (`composeEngine`). */
  readonly engine: ServerEngine
  readonly logger: Logger
  /** Largest request body, in bytes; larger ones get 413 while being read. */
  readonly maxBodyBytes: number
  /**
   * Largest body of `POST /api/v1/ingest_events/batch` as sent (`SERVICE_BATCH_MAX_BODY_BYTES`).
   * @default maxBodyBytes
   */
  readonly maxBatchBodyBytes?: number
  /**
   * Largest body of a source-map chunk upload as sent: one chunk plus 64 KiB
   * (`SERVICE_SOURCEMAPS_CHUNK_BYTES`), or `maxBodyBytes` when larger.
   * @default chunkBodyCap(DEFAULT_SOURCE_MAP_LIMITS)
   */
  readonly maxChunkBodyBytes?: number
  /** `SERVICE_TRUSTED_PROXIES`: peers whose `X-Forwarded-For` is trusted. */
  readonly trustedProxies: readonly string[]
  /**
   * `SERVICE_CORS_ORIGINS`: origins whose pages may call the browser-facing ingest endpoints
   * ({@link CORS_PATHS}); `['*']` allows any. @default ['*']
   */
  readonly corsOrigins?: readonly string[]
  /** The `{base_url}` listed in the OpenAPI document's `servers`, when known. */
  readonly publicUrl?: string
  /**
   * Marks the dashboard's cookies `Secure` (`SERVICE_COOKIE_SECURE`).
   * @default true when `publicUrl` is https
   */
  readonly secureCookies?: boolean
  /** Readiness and metrics of the analytics store. @default disabled */
  readonly analytics?: Pick<AnalyticsRuntime, 'health' | 'metrics'>
  /** The documentation served at `/docs` (see `docs.ts`). @default the repository's `docs/` */
  readonly docsDir?: string
}

const DISABLED_ANALYTICS: Pick<AnalyticsRuntime, 'health' | 'metrics'> = {
  health: async () => ({ status: 200, body: { status: 'disabled', enabled: false, ready: false } }),
  metrics: async () => '',
}

/**
 * The endpoints browsers may call from other origins: event ingest and check-ins only (and
 * Sentry's, which `@sentry/browser` posts to, and OTLP's, which OpenTelemetry's browser
 * exporters post to).
 */
export const CORS_PATHS = [
  '/api/v1/ingest_events',
  '/api/v1/ingest_events/batch',
  '/api/v1/check_ins',
  ...SENTRY_PATHS,
  ...OTLP_PATHS,
] as const

// What the SDK sends (fetch-transport.ts) plus the spec's alternative key header.
const CORS_HEADERS = {
  'Access-Control-Allow-Methods': 'POST, OPTIONS',
  'Access-Control-Allow-Headers':
    'Authorization, X-Api-Key, Content-Type, Content-Encoding, X-Logister-Batch-Id, X-Sentry-Auth',
  'Access-Control-Expose-Headers':
    'Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, X-Sentry-Rate-Limits',
  // Chromium caps the preflight cache at two hours.
  'Access-Control-Max-Age': '7200',
}

/**
 * CORS for {@link CORS_PATHS}: preflights get 204, and every answer (errors included, so pages
 * can read a 429's `Retry-After`) gets the CORS headers when its `Origin` is allowed. A
 * disallowed origin gets the same answers without them, which browsers refuse to hand over.
 */
function cors(origins: readonly string[]): MiddlewareHandler {
  const any = origins.includes('*')
  const allowed = new Set(origins)
  return async (c, next) => {
    const origin = c.req.header('origin')
    const allowOrigin = any ? '*' : origin !== undefined && allowed.has(origin) ? origin : null
    const apply = (headers: Headers) => {
      if (!any) headers.append('Vary', 'Origin')
      if (allowOrigin === null) return
      headers.set('Access-Control-Allow-Origin', allowOrigin)
      for (const [name, value] of Object.entries(CORS_HEADERS)) headers.set(name, value)
    }
    if (c.req.method === 'OPTIONS') {
      const res = c.body(null, 204)
      apply(res.headers)
      return res
    }
    await next()
    apply(c.res.headers)
  }
}

/** The Hono app type of the server. */
export type TisApp = Hono<{ Variables: RequestIdVariables }>

/**
 * Builds the HTTP app: request ids, one log line per request, the body cap, the engine's routes,
 * health and the OpenAPI document, JSON 404/405, and one `onError` for the unexpected. Every
 * answer to an API call comes from the engine; this layer only moves bytes.
 */
export function createApp(options: AppOptions): TisApp {
  const { engine, logger } = options
  const analytics = options.analytics ?? DISABLED_ANALYTICS
  const app: TisApp = new Hono()
  const clientIp = createClientIpResolver(options.trustedProxies)
  const openApiDocument = serverOpenApiDocument(options.publicUrl)
  const openApi = JSON.stringify(openApiDocument)

  app.use(requestId())
  app.use(async (c, next) => {
    const started = performance.now()
    await next()
    logger.info('request', {
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      duration_ms: Math.round((performance.now() - started) * 10) / 10,
      request_id: c.get('requestId'),
    })
  })
  // The batch endpoint has its own cap (Logister's clients send up to 2 MiB there).
  const BATCH_PATH = '/api/v1/ingest_events/batch'
  // Source-map uploads: one chunk (SERVICE_SOURCEMAPS_CHUNK_BYTES) plus 64 KiB.
  const chunkCap = Math.max(
    options.maxBodyBytes,
    options.maxChunkBodyBytes ?? chunkBodyCap(DEFAULT_SOURCE_MAP_LIMITS),
  )
  const capOf = (c: Context) =>
    c.req.path === BATCH_PATH
      ? (options.maxBatchBodyBytes ?? options.maxBodyBytes)
      : UPLOAD_BODY_PATH.test(c.req.path)
        ? chunkCap
        : options.maxBodyBytes
  const tooLarge = (c: Context) =>
    sendJson(
      c,
      413,
      { error: `request body is too large (maximum is ${capOf(c)} bytes)` },
      // The rest of the body is not read, so the connection cannot carry another request.
      { Connection: 'close' },
    )
  // Before the body cap, so that a 413 carries the CORS headers too.
  const corsMiddleware = cors(options.corsOrigins ?? ['*'])
  for (const path of CORS_PATHS) app.use(path, corsMiddleware)
  const streamingLimit = bodyLimit({ maxSize: options.maxBodyBytes, onError: tooLarge })
  const chunkStreamingLimit = bodyLimit({ maxSize: chunkCap, onError: tooLarge })
  const batchStreamingLimit = bodyLimit({
    maxSize: options.maxBatchBodyBytes ?? options.maxBodyBytes,
    onError: tooLarge,
  })
  app.use('/api/*', async (c, next) => {
    // With a Content-Length, Node's parser never delivers more than it declares: checking the
    // header is enough and keeps the body on @hono/node-server's fast read path. Only chunked
    // bodies need counting as they stream in.
    const declared = c.req.header('content-length')
    if (declared !== undefined && /^\d+$/.test(declared)) {
      if (Number(declared) > capOf(c)) return tooLarge(c)
      return next()
    }
    if (UPLOAD_BODY_PATH.test(c.req.path)) return chunkStreamingLimit(c, next)
    return (c.req.path === BATCH_PATH ? batchStreamingLimit : streamingLimit)(c, next)
  })

  const routes: RouteSpec[] = [
    { method: 'GET', path: '/health', handler: (c) => sendJson(c, 200, { status: 'ok' }) },
    {
      method: 'GET',
      path: '/health/ready',
      handler: async (c) => sendEngineResponse(c, await engine.readiness()),
    },
    {
      method: 'GET',
      path: '/health/analytics_store',
      handler: async (c) => {
        const health = await analytics.health()
        return sendJson(c, health.status, health.body)
      },
    },
    {
      method: 'GET',
      path: '/metrics',
      handler: async (c) =>
        c.body(await analytics.metrics(), 200, {
          'Content-Type': 'text/plain; version=0.0.4; charset=utf-8',
        }),
    },
    {
      method: 'GET',
      path: '/api/v1/openapi.json',
      handler: (c) => c.body(openApi, 200, { 'Content-Type': 'application/json' }),
    },
    ...ingestRoutes(engine.ingest, clientIp),
    ...managementRoutes(engine.management, clientIp),
    ...accountRoutes(engine.account, clientIp),
    ...readRoutes(engine.reads, clientIp),
    ...sourceSettingsRoutes(engine.sourceSettings, clientIp),
    ...alertRoutes(engine.alerts, clientIp),
    ...sourceMapRoutes(engine.sourceMaps, clientIp),
  ]
  for (const route of routes) app.on(route.method, route.path, route.handler)

  // A known path with another method: 405 and the methods it has (HEAD comes with GET).
  const allowed = new Map<string, Set<string>>()
  for (const { method, path } of routes) {
    const methods = allowed.get(path) ?? new Set<string>()
    methods.add(method)
    if (method === 'GET') methods.add('HEAD')
    if ((CORS_PATHS as readonly string[]).includes(path)) methods.add('OPTIONS')
    allowed.set(path, methods)
  }
  for (const [path, methods] of allowed) {
    const allow = [...methods].sort().join(', ')
    app.all(path, (c) => sendJson(c, 405, { error: 'Method not allowed' }, { Allow: allow }))
  }

  // The documentation site (HTML) at `/docs`, before the dashboard so that it never shadows it.
  app.route(
    '/docs',
    createDocsApp({ docsDir: options.docsDir ?? DEFAULT_DOCS_DIR, openApi: openApiDocument }),
  )
  // The web UI (HTML) at `/`; its routes never shadow the API's, and unknown paths stay JSON 404s.
  app.route(
    '/',
    createDashboard({
      engine,
      secureCookies: options.secureCookies ?? options.publicUrl?.startsWith('https:') ?? false,
      clientIp,
    }),
  )

  app.notFound((c) => sendJson(c, 404, { error: 'Not found' }))
  app.onError((error, c) => {
    if (error instanceof HTTPException && error.status < 500) {
      return sendJson(c, error.status, { error: error.message || 'Bad request' })
    }
    // The database is down or refusing connections: tell clients to retry, not that we broke.
    if (StoreError.is(error) && error.code === 'unavailable') {
      logger.error('database unavailable', {
        path: c.req.path,
        request_id: c.get('requestId'),
        error,
      })
      return sendJson(c, 503, { error: 'Service unavailable' }, { 'Retry-After': '5' })
    }
    // The client went away while sending its body: nobody reads this answer, and it is not ours.
    if (
      c.req.raw.signal.aborted ||
      (error as { code?: string }).code === 'ECONNRESET' ||
      error.message === 'aborted'
    ) {
      logger.info('client aborted the request', {
        method: c.req.method,
        path: c.req.path,
        request_id: c.get('requestId'),
        status: 499,
      })
      return sendJson(c, 499, { error: 'Client closed request' })
    }
    logger.error('unhandled error', {
      method: c.req.method,
      path: c.req.path,
      request_id: c.get('requestId'),
      error,
    })
    return sendJson(c, 500, { error: 'Internal server error' })
  })
  return app
}
