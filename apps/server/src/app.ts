import { createDashboard } from '@tis/dashboard'
import type { Engine } from '@tis/ingest'
import { OTLP_PATHS, StoreError } from '@tis/ingest'
import type { Context } from 'hono'
import { Hono } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { type RequestIdVariables, requestId } from 'hono/request-id'
import type { AnalyticsRuntime } from './analytics'
import { createClientIpResolver } from './client-ip'
import { createDocsApp, DEFAULT_DOCS_DIR } from './docs'
import type { Logger } from './logger'
import { serverOpenApiDocument } from './openapi'
import { sendJson } from './respond'

/** Options of {@link createApp}. */
export interface AppOptions {
  /** The engine (`createEngine`). */
  readonly engine: Engine
  readonly logger: Logger
  /** `SERVICE_TRUSTED_PROXIES`: peers whose `X-Forwarded-For` is trusted. */
  readonly trustedProxies: readonly string[]
  /** The `{base_url}` listed in the docs' OpenAPI document's `servers`, when known. */
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

/** The Hono app type of the server. */
export type TisApp = Hono<{ Variables: RequestIdVariables }>

/** The paths outside `/api/` that the engine answers (every path under it is the engine's). */
const ENGINE_PATHS = ['/api/*', '/health', '/health/ready', ...OTLP_PATHS]

/**
 * Builds the HTTP app: request ids, one log line per request, the engine's HTTP interface
 * (`engine.handle`: its routes, body caps, CORS, JSON 404/405/413), the analytics health
 * and metrics, the docs and the dashboard, and one `onError` for the unexpected. Every answer
 * to an API call comes from the engine; this layer only moves bytes.
 */
export function createApp(options: AppOptions): TisApp {
  const { engine, logger } = options
  const analytics = options.analytics ?? DISABLED_ANALYTICS
  const app: TisApp = new Hono()
  const clientIp = createClientIpResolver(options.trustedProxies)
  const openApiDocument = serverOpenApiDocument(options.publicUrl)

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

  const onError = (error: Error, c: Context) => {
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
  }

  for (const path of ENGINE_PATHS) {
    app.all(path, async (c) => {
      // The engine's errors get the CORS headers of their path too, so pages can read a 503.
      const onEngineError = (error: unknown) => onError(error as Error, c)
      const response = await engine.handle(c.req.raw, { ip: clientIp(c), onError: onEngineError })
      // A Response of its own keeps none of the headers set before it: echo the request id.
      response.headers.set('X-Request-Id', c.get('requestId'))
      return response
    })
  }

  // The analytics store's health and metrics are the server's own (the engine has no analytics).
  app.get('/health/analytics_store', async (c) => {
    const health = await analytics.health()
    return sendJson(c, health.status, health.body)
  })
  app.get('/metrics', async (c) =>
    c.body(await analytics.metrics(), 200, {
      'Content-Type': 'text/plain; version=0.0.4; charset=utf-8',
    }),
  )
  for (const path of ['/health/analytics_store', '/metrics']) {
    app.all(path, (c) => sendJson(c, 405, { error: 'Method not allowed' }, { Allow: 'GET, HEAD' }))
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
  app.onError(onError)
  return app
}
