import type { HttpOperation } from './operation-types'

/** The paths OpenTelemetry's OTLP/HTTP exporters post to. */
export const OTLP_PATHS = ['/v1/traces', '/v1/logs'] as const

/** The paths Sentry's SDKs post to (with and without the trailing slash they send). */
export const SENTRY_PATHS = [
  '/api/:project/envelope/',
  '/api/:project/envelope',
  '/api/:project/store/',
  '/api/:project/store',
] as const

/**
 * Health, and ingestion: the native endpoints (the body as text, or as bytes when compressed,
 * parsed by the engine exactly once), the batch, Sentry's and OTLP's (raw bytes).
 */
export function ingestOperations(): HttpOperation[] {
  const single = (path: string, id: string, call: string, cors = false): HttpOperation => ({
    method: 'POST',
    path: `/api/v1${path}`,
    id,
    api: 'ingest',
    call,
    body: 'encoded',
    cap: 'body',
    ...(cors ? { cors } : {}),
  })
  return [
    {
      method: 'GET',
      path: '/health',
      id: 'health',
      api: 'health',
      call: '',
      body: 'none',
      cap: 'body',
    },
    {
      method: 'GET',
      path: '/health/ready',
      id: 'healthReady',
      api: 'readiness',
      call: '',
      body: 'none',
      cap: 'body',
    },
    single('/ingest_events', 'ingestEvent', 'ingestEvent', true),
    {
      method: 'POST',
      path: '/api/v1/ingest_events/batch',
      id: 'ingestEventBatch',
      api: 'ingest',
      call: 'ingestEventBatch',
      body: 'bytes',
      cap: 'batch',
      cors: true,
    },
    single('/check_ins', 'createCheckIn', 'checkIn', true),
    single('/deployments', 'createDeployment', 'recordDeployment'),
    single('/sessions', 'createSessions', 'recordSessions', true),
    single('/mobile_ingest_tokens', 'createMobileIngestToken', 'mintMobileToken'),
    ...SENTRY_PATHS.map((path): HttpOperation => {
      const endpoint = path.includes('envelope') ? 'envelope' : 'store'
      const name = endpoint === 'envelope' ? 'sentryEnvelope' : 'sentryStore'
      return {
        method: 'POST',
        path,
        id: path.endsWith('/') ? name : `${name}NoSlash`,
        api: 'ingest',
        call: 'ingestSentry',
        arg: endpoint,
        body: 'bytes',
        cap: 'body',
        params: true,
        cors: true,
      }
    }),
    ...OTLP_PATHS.map(
      (path): HttpOperation => ({
        method: 'POST',
        path,
        id: path === '/v1/traces' ? 'otlpTraces' : 'otlpLogs',
        api: 'ingest',
        call: 'ingestOtlp',
        arg: path === '/v1/traces' ? 'traces' : 'logs',
        body: 'bytes',
        cap: 'otlp',
        cors: true,
      }),
    ),
  ]
}
