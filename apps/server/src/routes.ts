import type {
  AccountApi,
  AlertsApi,
  EngineRequest,
  EngineResponse,
  IngestApi,
  ManagementApi,
  ReadApi,
  SourceSettingsApi,
} from '@tis/ingest'
import type { Context, Handler } from 'hono'
import type { ClientIpResolver } from './client-ip'
import { sendEngineResponse } from './respond'
import type { RouteSpec } from './route-spec'

export type { RouteSpec } from './route-spec'

type Operation = (request: EngineRequest) => Promise<EngineResponse>

/** The request fields every engine operation gets: headers and, when known, the client IP. */
function baseRequest(c: Context, clientIp: ClientIpResolver) {
  const ip = clientIp(c)
  return { headers: c.req.raw.headers, ...(ip === undefined ? {} : { ip }) }
}

/**
 * An ingestion route: the raw body goes to the engine unparsed, so the engine parses it exactly
 * once and answers malformed JSON itself, as every host must. A body with a `Content-Encoding`
 * goes as bytes, which the engine checks and decompresses (gzip, deflate) with the server's
 * inflater (`body-inflater.ts`) and its cap on the output.
 */
function ingestRoute(operation: Operation, clientIp: ClientIpResolver): Handler {
  return async (c) => {
    const encoding = (c.req.header('content-encoding') ?? '').trim().toLowerCase()
    const body =
      encoding === '' || encoding === 'identity'
        ? { text: await c.req.text() }
        : { bytes: new Uint8Array(await c.req.arrayBuffer()) }
    return sendEngineResponse(c, await operation({ ...baseRequest(c, clientIp), ...body }))
  }
}

/**
 * A management route: path parameters and the raw body text go to the engine, which parses it
 * and answers malformed JSON itself, exactly as on the ingestion routes.
 */
function managementRoute(operation: Operation, clientIp: ClientIpResolver): Handler {
  return async (c) => {
    const request: EngineRequest = {
      ...baseRequest(c, clientIp),
      params: c.req.param(),
      query: c.req.query(),
      text: await c.req.text(),
    }
    return sendEngineResponse(c, await operation(request))
  }
}

/**
 * The batch route: the raw body bytes go to the engine, which checks its caps, decompresses it
 * (`Content-Encoding: gzip`) with the server's inflater and splits the NDJSON itself.
 */
function batchRoute(operation: Operation, clientIp: ClientIpResolver): Handler {
  return async (c) => {
    const bytes = new Uint8Array(await c.req.arrayBuffer())
    return sendEngineResponse(c, await operation({ ...baseRequest(c, clientIp), bytes }))
  }
}

/**
 * Sentry's endpoints: the raw body bytes (an envelope's payload lengths count bytes; gzip and
 * deflate are the engine's to inflate), the query (`sentry_key`) and the project's number.
 */
function sentryRoute(
  api: IngestApi,
  endpoint: 'envelope' | 'store',
  clientIp: ClientIpResolver,
): Handler {
  return async (c) => {
    const bytes = new Uint8Array(await c.req.arrayBuffer())
    const request = {
      ...baseRequest(c, clientIp),
      bytes,
      params: c.req.param(),
      query: c.req.query(),
    }
    return sendEngineResponse(c, await api.ingestSentry(request, endpoint))
  }
}

/**
 * OTLP/HTTP's default paths (an exporter given only the base URL posts to them): the raw body
 * bytes, protobuf or JSON, gzip being the engine's to inflate.
 */
function otlpRoute(api: IngestApi, signal: 'traces' | 'logs', clientIp: ClientIpResolver): Handler {
  return async (c) => {
    const bytes = new Uint8Array(await c.req.arrayBuffer())
    return sendEngineResponse(
      c,
      await api.ingestOtlp({ ...baseRequest(c, clientIp), bytes }, signal),
    )
  }
}

/** The paths OpenTelemetry's OTLP/HTTP exporters post to. */
export const OTLP_PATHS = ['/v1/traces', '/v1/logs'] as const

/** The paths Sentry's SDKs post to (with and without the trailing slash they send). */
export const SENTRY_PATHS = [
  '/api/:project/envelope/',
  '/api/:project/envelope',
  '/api/:project/store/',
  '/api/:project/store',
] as const

/** `POST /api/v1/ingest_events`, `/check_ins`, `/deployments` and `/mobile_ingest_tokens`. */
export function ingestRoutes(api: IngestApi, clientIp: ClientIpResolver): RouteSpec[] {
  return [
    {
      method: 'POST',
      path: '/api/v1/ingest_events',
      handler: ingestRoute((r) => api.ingestEvent(r), clientIp),
    },
    {
      method: 'POST',
      path: '/api/v1/ingest_events/batch',
      handler: batchRoute((r) => api.ingestEventBatch(r), clientIp),
    },
    {
      method: 'POST',
      path: '/api/v1/check_ins',
      handler: ingestRoute((r) => api.checkIn(r), clientIp),
    },
    {
      method: 'POST',
      path: '/api/v1/deployments',
      handler: ingestRoute((r) => api.recordDeployment(r), clientIp),
    },
    {
      method: 'POST',
      path: '/api/v1/mobile_ingest_tokens',
      handler: ingestRoute((r) => api.mintMobileToken(r), clientIp),
    },
    ...SENTRY_PATHS.map(
      (path): RouteSpec => ({
        method: 'POST',
        path,
        handler: sentryRoute(api, path.includes('envelope') ? 'envelope' : 'store', clientIp),
      }),
    ),
    ...OTLP_PATHS.map(
      (path): RouteSpec => ({
        method: 'POST',
        path,
        handler: otlpRoute(api, path === '/v1/traces' ? 'traces' : 'logs', clientIp),
      }),
    ),
  ]
}

/** The management API: users, projects, API keys, archive/restore, members, mobile tokens, limits. */
export function managementRoutes(api: ManagementApi, clientIp: ClientIpResolver): RouteSpec[] {
  const route = (method: RouteSpec['method'], path: string, operation: Operation): RouteSpec => ({
    method,
    path: `/api/v1${path}`,
    handler: managementRoute(operation, clientIp),
  })
  return [
    route('POST', '/users', api.createUser),
    route('POST', '/projects', api.createProject),
    route('GET', '/projects', api.listProjects),
    route('GET', '/projects/:id', api.getProject),
    route('GET', '/projects/:id/api_keys', api.listApiKeys),
    route('POST', '/projects/:id/api_keys', api.createApiKey),
    route('DELETE', '/projects/:id/api_keys/:key_id', api.revokeApiKey),
    route('POST', '/projects/:id/archive', api.archiveProject),
    route('POST', '/projects/:id/restore', api.restoreProject),
    route('POST', '/projects/:id/members', api.addMember),
    route('GET', '/projects/:id/members', api.listMembers),
    route('GET', '/projects/:id/mobile_tokens', api.listMobileTokens),
    route('DELETE', '/projects/:id/mobile_tokens/:token_id', api.revokeMobileToken),
    route('GET', '/projects/:id/rate_limits', api.getRateLimits),
    route('GET', '/projects/:id/retention', api.getRetention),
    route('PUT', '/projects/:id/retention', api.setRetention),
    route('PUT', '/projects/:id/rate_limits', api.setRateLimits),
  ]
}

/**
 * The signed-in user's own account (`/api/v1/users/me/…`): list and end dashboard sessions, and
 * rotate the access token. Authenticated like the management API.
 */
export function accountRoutes(api: AccountApi, clientIp: ClientIpResolver): RouteSpec[] {
  const path = '/api/v1/users/me'
  return [
    {
      method: 'GET',
      path: `${path}/sessions`,
      handler: managementRoute(api.listSessions, clientIp),
    },
    {
      method: 'DELETE',
      path: `${path}/sessions`,
      handler: managementRoute(api.endSessions, clientIp),
    },
    { method: 'POST', path: `${path}/token`, handler: managementRoute(api.rotateToken, clientIp) },
  ]
}

/** The read API (inbox, activity, performance, traces, monitors, deployments) with the management API's tokens. */
export function readRoutes(api: ReadApi, clientIp: ClientIpResolver): RouteSpec[] {
  const route = (method: RouteSpec['method'], path: string, operation: Operation): RouteSpec => ({
    method,
    path: `/api/v1/projects/:id${path}`,
    handler: managementRoute(operation, clientIp),
  })
  return [
    route('GET', '/issues', api.listIssues),
    route('GET', '/issues/:issue_id', api.getIssue),
    route('PATCH', '/issues/:issue_id', api.updateIssue),
    route('GET', '/events', api.listEvents),
    route('GET', '/events/:event_id', api.getEvent),
    route('GET', '/monitors', api.listMonitors),
    route('GET', '/monitors/:monitor_id', api.getMonitor),
    route('GET', '/monitors/:monitor_id/check_ins', api.listCheckIns),
    route('GET', '/deployments', api.listDeployments),
    route('GET', '/transactions', api.listTransactions),
    route('GET', '/transactions/latency', api.getTransactionLatency),
    route('GET', '/metrics', api.getMetric),
    route('GET', '/traces', api.listTraces),
    route('GET', '/traces/:trace_id', api.getTrace),
  ]
}

/** `GET` and `PUT /api/v1/projects/:id/source_settings` (source excerpts, issue 11). */
export function sourceSettingsRoutes(
  api: SourceSettingsApi,
  clientIp: ClientIpResolver,
): RouteSpec[] {
  const path = '/api/v1/projects/:id/source_settings'
  return [
    { method: 'GET', path, handler: managementRoute(api.getSourceSettings, clientIp) },
    { method: 'PUT', path, handler: managementRoute(api.setSourceSettings, clientIp) },
  ]
}

/** Alerts (issue 21): a project's channels, rules, delivery log and test messages. */
export function alertRoutes(api: AlertsApi, clientIp: ClientIpResolver): RouteSpec[] {
  const route = (method: RouteSpec['method'], path: string, operation: Operation): RouteSpec => ({
    method,
    path: `/api/v1/projects/:id${path}`,
    handler: managementRoute(operation, clientIp),
  })
  return [
    route('GET', '/alert_channels', api.listAlertChannels),
    route('POST', '/alert_channels', api.createAlertChannel),
    route('DELETE', '/alert_channels/:channel_id', api.deleteAlertChannel),
    route('POST', '/alert_channels/:channel_id/test', api.testAlertChannel),
    route('GET', '/alert_rules', api.listAlertRules),
    route('POST', '/alert_rules', api.createAlertRule),
    route('DELETE', '/alert_rules/:rule_id', api.deleteAlertRule),
    route('GET', '/alert_deliveries', api.listAlertDeliveries),
  ]
}

export { sourceMapRoutes, UPLOAD_BODY_PATH } from './routes-sourcemaps'
