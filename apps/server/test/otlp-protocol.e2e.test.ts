// OTLP/HTTP at the HTTP level, on a real server (PGlite): answers in the request's encoding,
// every bad input refused with a google.rpc.Status and nothing stored, partial success for a
// rejected span, gzip, resent spans stored once, and the 429 exporters retry after. Protobuf
// bodies are made by OpenTelemetry's own serialiser from spans its own tracer recorded.
import { gzipSync } from 'node:zlib'
import { context, SpanKind, trace } from '@opentelemetry/api'
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer'
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base'
import { ADMIN_TOKEN, createClient, type Harness, startPgliteHarness } from '@tis/test-utils/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

let harness: Harness
beforeAll(async () => {
  harness = await startPgliteHarness()
})
afterAll(() => harness?.close())

async function project() {
  const c = createClient(harness.url)
  const { projectId, key } = await c.projectWithKey()
  return { c, projectId, key }
}

/** Two real spans (a server span and a client span under it), as the SDK's serialiser writes them. */
function recordedSpans() {
  const exporter = new InMemorySpanExporter()
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] })
  const tracer = provider.getTracer('protocol-test')
  const root = tracer.startSpan('POST /checkout', { kind: SpanKind.SERVER })
  const child = tracer.startSpan(
    'charge card',
    { kind: SpanKind.CLIENT },
    trace.setSpan(context.active(), root),
  )
  child.end()
  root.end()
  return { spans: exporter.getFinishedSpans(), traceId: root.spanContext().traceId }
}

const PROTO = { 'content-type': 'application/x-protobuf' }
const JSON_TYPE = { 'content-type': 'application/json' }

async function post(path: string, body: string | Uint8Array, headers: Record<string, string>) {
  const r = await fetch(`${harness.url}${path}`, { method: 'POST', headers, body })
  return { status: r.status, headers: r.headers, bytes: new Uint8Array(await r.arrayBuffer()) }
}

const jsonOf = (bytes: Uint8Array) => JSON.parse(new TextDecoder().decode(bytes))

/** A `google.rpc.Status` read back: field 1 the code, field 2 the message (short messages). */
function statusOf(bytes: Uint8Array) {
  expect(bytes[0]).toBe(0x08)
  const code = bytes[1]!
  expect(bytes[2]).toBe(0x12)
  let length = 0
  let pos = 3
  for (let shift = 0; ; shift += 7) {
    const b = bytes[pos++]!
    length |= (b & 0x7f) << shift
    if (b < 0x80) break
  }
  return { code, message: new TextDecoder().decode(bytes.subarray(pos, pos + length)) }
}

/** Records stored for the project: events (transactions, errors, logs) and spans. */
async function stored(projectId: string) {
  const rows = await harness.query<{ n: number }>(
    `select (select count(*) from events where project_id = $1)::int
          + (select count(*) from spans where project_id = $1)::int as n`,
    [projectId],
  )
  return rows[0]?.n
}

const NOW = BigInt(Date.now()) * 1_000_000n
const jsonSpan = (spanId: string, endNanos: bigint) => ({
  traceId: '5b8efff798038103d269b633813fc60c',
  spanId,
  name: `span ${spanId}`,
  kind: 1,
  startTimeUnixNano: String(NOW),
  endTimeUnixNano: String(endNanos),
})
const jsonTraces = (spans: object[]) =>
  JSON.stringify({ resourceSpans: [{ resource: {}, scopeSpans: [{ scope: {}, spans }] }] })

describe('OTLP/HTTP protocol', () => {
  it('stores protobuf spans (plain and gzip) and answers an empty protobuf response', async () => {
    const p = await project()
    const { spans, traceId } = recordedSpans()
    const body = ProtobufTraceSerializer.serializeRequest(spans)!
    const auth = { authorization: `Bearer ${p.key}` }
    const plain = await post('/v1/traces', body, { ...PROTO, ...auth })
    expect(plain.status).toBe(200)
    expect(plain.headers.get('content-type')).toBe('application/x-protobuf')
    expect(plain.bytes).toEqual(new Uint8Array(0))
    // The server span gives a span and a transaction; the client span a span.
    expect(await stored(p.projectId)).toBe(3)
    const zipped = await post('/v1/traces', gzipSync(body), {
      ...PROTO,
      'x-api-key': p.key,
      'content-encoding': 'gzip',
    })
    expect(zipped.status).toBe(200)
    // The same spans again: the same event ids, nothing stored twice.
    expect(await stored(p.projectId)).toBe(3)
    const trace = await p.c.api('GET', `/api/v1/projects/${p.projectId}/traces/${traceId}`, {
      token: ADMIN_TOKEN,
    })
    expect(trace.body.spans.map((s: { name: string }) => s.name)).toEqual([
      'POST /checkout',
      'charge card',
    ])
  })

  it('refuses a truncated protobuf body with 400 and a protobuf Status, storing nothing', async () => {
    const p = await project()
    const body = ProtobufTraceSerializer.serializeRequest(recordedSpans().spans)!
    const r = await post('/v1/traces', body.subarray(0, body.length - 7), {
      ...PROTO,
      authorization: `Bearer ${p.key}`,
    })
    expect(r.status).toBe(400)
    expect(r.headers.get('content-type')).toBe('application/x-protobuf')
    const status = statusOf(r.bytes)
    expect(status.code).toBe(3)
    expect(status.message).toMatch(/runs past the end|truncated/)
    expect(await stored(p.projectId)).toBe(0)
  })

  it('answers refusals in JSON for JSON requests: malformed body, wrong key, no key', async () => {
    const p = await project()
    const malformed = await post('/v1/logs', '{"resourceLogs": [', {
      ...JSON_TYPE,
      authorization: `Bearer ${p.key}`,
    })
    expect(malformed.status).toBe(400)
    expect(jsonOf(malformed.bytes)).toMatchObject({ code: 3, message: expect.any(String) })
    const body = jsonTraces([jsonSpan('eee19b7ec3c1b174', NOW + 1_000_000n)])
    const wrong = await post('/v1/traces', body, { ...JSON_TYPE, authorization: 'Bearer nope' })
    expect(wrong.status).toBe(401)
    expect(jsonOf(wrong.bytes)).toEqual({ code: 16, message: expect.any(String) })
    const none = await post('/v1/traces', body, PROTO)
    expect(none.status).toBe(401)
    expect(statusOf(none.bytes).code).toBe(16)
    expect(await stored(p.projectId)).toBe(0)
  })

  it('answers 415 for another content type', async () => {
    const p = await project()
    const r = await post('/v1/traces', 'hello', {
      'content-type': 'text/plain',
      authorization: `Bearer ${p.key}`,
    })
    expect(r.status).toBe(415)
    expect(jsonOf(r.bytes).message).toMatch(/application\/x-protobuf or application\/json/)
  })

  it('stores the valid spans and reports the rejected one in partial_success', async () => {
    const p = await project()
    const twoYears = 2n * 366n * 86_400_000_000_000n
    const body = jsonTraces([
      jsonSpan('eee19b7ec3c1b174', NOW + 5_000_000n),
      jsonSpan('eee19b7ec3c1b175', NOW + twoYears),
    ])
    const r = await post('/v1/traces', body, { ...JSON_TYPE, authorization: `Bearer ${p.key}` })
    expect(r.status).toBe(200)
    const answer = jsonOf(r.bytes)
    expect(answer.partialSuccess.rejectedSpans).toBe(1)
    expect(answer.partialSuccess.errorMessage).toMatch(/^1 span rejected; span 2: .*duration_ms/)
    expect(await stored(p.projectId)).toBe(1)
  })

  it('stores OTLP/JSON logs with their trace ids', async () => {
    const p = await project()
    const body = JSON.stringify({
      resourceLogs: [
        {
          resource: { attributes: [{ key: 'service.name', value: { stringValue: 'shop' } }] },
          scopeLogs: [
            {
              scope: { name: 'test' },
              logRecords: [
                {
                  timeUnixNano: String(NOW),
                  severityNumber: 17,
                  body: { stringValue: 'payment declined' },
                  traceId: '5b8efff798038103d269b633813fc60c',
                  spanId: 'eee19b7ec3c1b174',
                },
              ],
            },
          ],
        },
      ],
    })
    const r = await post('/v1/logs', body, { ...JSON_TYPE, 'x-api-key': p.key })
    expect({ status: r.status, body: jsonOf(r.bytes) }).toEqual({ status: 200, body: {} })
    const logs = await p.c.api('GET', `/api/v1/projects/${p.projectId}/events?event_type=log`, {
      token: ADMIN_TOKEN,
    })
    expect(logs.body.events).toEqual([
      expect.objectContaining({
        message: 'payment declined',
        level: 'error',
        trace_id: '5b8efff798038103d269b633813fc60c',
      }),
    ])
  })

  it('answers 429 with Retry-After once the project is over its cap', async () => {
    const p = await project()
    const set = await p.c.api('PUT', `/api/v1/projects/${p.projectId}/rate_limits`, {
      token: ADMIN_TOKEN,
      json: { rate_limit: { requests: 1 } },
    })
    expect(set.status, set.text).toBe(200)
    const headers = { ...PROTO, authorization: `Bearer ${p.key}` }
    const body = ProtobufTraceSerializer.serializeRequest(recordedSpans().spans)!
    expect((await post('/v1/traces', body, headers)).status).toBe(200)
    const refused = await post('/v1/traces', body, headers)
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(statusOf(refused.bytes).code).toBe(8)
  })
})
