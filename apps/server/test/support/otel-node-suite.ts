import { fileURLToPath } from 'node:url'
import { runScript } from '@tis/test-utils/run-script'
import { ADMIN_TOKEN, createClient, type Harness } from '@tis/test-utils/server'
import { expect, it } from 'vitest'

const APP = fileURLToPath(new URL('../fixtures/otel-node-app.mjs', import.meta.url))

/** How the exporters are told to authenticate: each header form the guide documents. */
const HEADERS = {
  'http/protobuf': (key: string) => `Authorization=Bearer%20${key}`,
  'http/json': (key: string) => `x-api-key=${key}`,
}

/**
 * Runs the OpenTelemetry application against a fresh project, configured only by the standard
 * environment variables; resolves the trace id it reported and a reader of the project.
 */
async function runOtelApp(harness: Harness, protocol: keyof typeof HEADERS) {
  const c = createClient(harness.url)
  const { projectId, key } = await c.projectWithKey()
  const run = await runScript(process.execPath, [APP], {
    env: {
      OTEL_EXPORTER_OTLP_ENDPOINT: harness.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
      OTEL_EXPORTER_OTLP_HEADERS: HEADERS[protocol](key),
      OTEL_SERVICE_NAME: 'shop',
      OTEL_RESOURCE_ATTRIBUTES: 'service.version=1.4.2,deployment.environment.name=staging',
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_LOGS_EXPORTER: 'otlp',
      OTEL_METRICS_EXPORTER: 'none',
      // An export the server refused shows here, and fails the test below.
      OTEL_LOG_LEVEL: 'warn',
    },
    timeoutMs: 60_000,
  })
  expect(run.code, run.stderr).toBe(0)
  expect(run.stderr).not.toMatch(/export|OTLPExporterError|status code/i)
  const { traceId } = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as { traceId: string }
  const read = async (path: string) => {
    const r = await c.api('GET', `/api/v1/projects/${projectId}${path}`, { token: ADMIN_TOKEN })
    expect(r.status, r.text).toBe(200)
    return r.body
  }
  return { traceId, read }
}

/** OpenTelemetry's Node SDK with its OTLP/HTTP exporters, unchanged, in each encoding. */
export function describeOtelNode(h: () => Harness) {
  it.each(['http/protobuf', 'http/json'] as const)(
    'stores the spans, the transaction, the exception and the log of %s exporters',
    async (protocol) => {
      const { traceId, read } = await runOtelApp(h(), protocol)
      // The trace tree: the server span, the database span under it.
      const trace = await read(`/traces/${traceId}`)
      expect(
        trace.spans.map((s: Record<string, unknown>) => [s['name'], s['kind'], s['depth']]),
      ).toEqual([
        ['GET /orders/:id', 'server', 0],
        ['SELECT orders', 'db', 1],
      ])
      // The root SERVER span is also a transaction, with its HTTP status.
      const { transactions } = await read('/transactions')
      expect(transactions).toEqual([
        expect.objectContaining({ name: 'GET /orders/:id', count: 1, error_count: 1 }),
      ])
      // The recorded exception: an issue, its event carrying the trace.
      const { issues } = await read('/issues')
      expect(issues.map((i: { title: string }) => i.title)).toEqual([
        "TypeError: Cannot read properties of undefined (reading 'id')",
      ])
      const { events: errors } = await read('/events?event_type=error')
      expect(errors).toHaveLength(1)
      const { event, frames } = await read(`/events/${errors[0].id}`)
      expect(event).toMatchObject({
        trace_id: traceId,
        release: '1.4.2',
        environment: 'staging',
      })
      expect(event.context.exception.exception_class).toBe('TypeError')
      expect(frames[0]).toMatchObject({ function: 'loadOrder' })
      // The log record, correlated with the trace.
      const { events: logs } = await read('/events?event_type=log')
      expect(logs).toEqual([
        expect.objectContaining({
          message: 'order lookup failed',
          level: 'warn',
          trace_id: traceId,
        }),
      ])
    },
    120_000,
  )
}
