import type { Harness } from '@tis/test-utils/server'
import { ADMIN_TOKEN as ADMIN_TOKEN_VALUE, createClient as createApi } from '@tis/test-utils/server'

export { sessionsOf } from '@tis/test-utils/server'
export const ADMIN_TOKEN = ADMIN_TOKEN_VALUE

/** Suites send more than the harness's default 25 requests per key. */
export const HARNESS_ENV = { SERVICE_PUBLIC_API_RATE_LIMIT_REQUESTS: '100000' }

/** What {@link seedTelemetry} sent, for the assertions. */
export interface Seeded {
  readonly traceId: string
  readonly errorTitle: string
  readonly logMessage: string
  readonly release: string
}

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString()

/**
 * Sends one of everything through the public API with a project key: a deployment, errors with
 * frames (one with local variables, one of them a secret)/request/tags, a related log, a metric, transactions, a trace's spans and a check-in.
 */
export async function seedTelemetry(harness: Harness, key: string, tag: string): Promise<Seeded> {
  const api = createApi(harness.url)
  const traceId = `${tag
    .replace(/[^0-9a-f]/g, '')
    .padEnd(8, '0')
    .slice(0, 8)}${'c'.repeat(24)}`
  const release = `v2-${tag}`
  const errorTitle = `TypeError: boom ${tag}`
  const logMessage = `charging card ${tag}`
  const send = async (path: string, body: unknown) => {
    const r = await api.ingest(path, key, body)
    if (r.status !== 201 && r.status !== 200) throw new Error(`${path}: ${r.status} ${r.text}`)
  }
  await send('/api/v1/deployments', {
    deployment: {
      release,
      environment: 'production',
      repository: 'acme/shop',
      commit_sha: 'abcdef1234567890',
      branch: 'main',
      deployed_at: minutesAgo(30),
      pull_request_number: 42,
      pull_request_url: 'https://github.com/acme/shop/pull/42',
      compare_url: 'https://github.com/acme/shop/compare/v1...v2',
      release_url: 'https://github.com/acme/shop/releases/tag/v2',
    },
  })
  const error = {
    event_type: 'error',
    level: 'error',
    message: errorTitle,
    environment: 'production',
    release,
    trace_id: traceId,
    request_id: `req-${tag}`,
    context: {
      exception: {
        class: 'TypeError',
        exception_class: 'TypeError',
        message: `boom ${tag}`,
        frames: [
          {
            function: 'chargeCard',
            filename: '/app/src/checkout.js',
            lineno: 12,
            colno: 5,
            // Filtered by data scrubbing when stored: the page marks it.
            vars: { cart_id: 'cart-1', api_token: 'tok-secret' },
          },
        ],
      },
      request: { method: 'POST', url: '/checkout' },
      tags: { region: 'eu-west-1' },
    },
  }
  await send('/api/v1/ingest_events', { event: { ...error, occurred_at: minutesAgo(20) } })
  await send('/api/v1/ingest_events', { event: { ...error, occurred_at: minutesAgo(10) } })
  await send('/api/v1/ingest_events', {
    event: {
      event_type: 'log',
      level: 'warning',
      message: logMessage,
      trace_id: traceId,
      environment: 'production',
      release,
    },
  })
  await send('/api/v1/ingest_events', {
    event: {
      event_type: 'metric',
      message: 'db.query',
      context: { value: 12 },
      environment: 'production',
    },
  })
  for (const [ms, status] of [
    [20, 200],
    [35, 200],
    [50, 500],
  ] as const) {
    await send('/api/v1/ingest_events', {
      event: {
        event_type: 'transaction',
        message: 'POST /checkout',
        duration_ms: ms,
        status,
        environment: 'production',
      },
    })
  }
  const traceStart = Date.now() - 60_000
  const spanAt = (offsetMs: number) => new Date(traceStart + offsetMs).toISOString()
  const span = (fields: Record<string, unknown>) =>
    send('/api/v1/ingest_events', { event: { event_type: 'span', trace_id: traceId, ...fields } })
  await span({
    name: 'POST /checkout',
    span_id: 'r000000000000001',
    kind: 'server',
    started_at: spanAt(0),
    ended_at: spanAt(200),
  })
  await span({
    name: 'SELECT cart',
    span_id: 's000000000000002',
    parent_span_id: 'r000000000000001',
    kind: 'db',
    started_at: spanAt(10),
    ended_at: spanAt(60),
  })
  await span({
    name: 'POST stripe',
    span_id: 's000000000000003',
    parent_span_id: 'r000000000000001',
    kind: 'http',
    started_at: spanAt(70),
    ended_at: spanAt(190),
  })
  await send('/api/v1/check_ins', {
    check_in: {
      slug: `nightly-${tag}`,
      status: 'ok',
      environment: 'production',
      expected_interval_seconds: 3600,
    },
  })
  await harness.server.engine.flush()
  return { traceId, errorTitle, logMessage, release }
}

/** A new android project with a mobile ingest token minted through the public API (its token). */
export async function mintAndroidToken(
  harness: Harness,
): Promise<{ projectId: string; token: string }> {
  const api = createApi(harness.url)
  const project = await api.createProject(ADMIN_TOKEN_VALUE, 'android')
  const serverKey = await api.createKey(project.id)
  const minted = await api.api('POST', '/api/v1/mobile_ingest_tokens', {
    apiKey: serverKey.token,
    json: {
      mobile_ingest_token: {
        platform: 'android',
        service: 'com.acme.app',
        environment: 'production',
      },
    },
  })
  if (minted.status !== 201) throw new Error(`minting failed: ${minted.status} ${minted.text}`)
  return { projectId: project.id, token: minted.body.token }
}
