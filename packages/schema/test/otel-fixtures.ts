import { type HrTime, SpanKind, SpanStatusCode, TraceFlags } from '@opentelemetry/api'
import { SeverityNumber } from '@opentelemetry/api-logs'
import { resourceFromAttributes } from '@opentelemetry/resources'
import type { ReadableLogRecord } from '@opentelemetry/sdk-logs'
import type { ReadableSpan, TimedEvent } from '@opentelemetry/sdk-trace'

// Real OpenTelemetry SDK objects, serialised in the tests by the real OTLP serializers of
// @opentelemetry/otlp-transformer, so the decoders are checked against what exporters send.

export const TRACE_ID = '0af7651916cd43dd8448eb211c80319c'
export const ROOT_ID = 'b7ad6b7169203331'
export const DB_ID = '00f067aa0ba902b7'
export const HTTP_ID = '5fb397be34d26b51'
export const QUEUE_ID = '4a1c2a3b4c5d6e7f'
export const INTERNAL_ID = '1122334455667788'

export const RESOURCE = resourceFromAttributes({
  'service.name': 'checkout',
  'service.version': '1.4.2',
  'deployment.environment.name': 'staging',
})
const SCOPE = { name: '@acme/instrumentation', version: '0.9.1' }

/** 2026-11-26T12:00:00.123456789Z */
export const T0: HrTime = [1_795_694_400, 123_456_789]
const at = (offsetMs: number): HrTime => [T0[0], T0[1] + offsetMs * 1_000_000]

interface SpanSpec {
  id: string
  name: string
  kind: SpanKind
  parent?: string
  start: number
  end: number
  attributes?: ReadableSpan['attributes']
  events?: TimedEvent[]
  status?: ReadableSpan['status']
}

function span(spec: SpanSpec): ReadableSpan {
  const ctx = { traceId: TRACE_ID, traceFlags: TraceFlags.SAMPLED }
  return {
    name: spec.name,
    kind: spec.kind,
    spanContext: () => ({ ...ctx, spanId: spec.id }),
    ...(spec.parent === undefined ? {} : { parentSpanContext: { ...ctx, spanId: spec.parent } }),
    startTime: at(spec.start),
    endTime: at(spec.end),
    status: spec.status ?? { code: SpanStatusCode.UNSET },
    attributes: spec.attributes ?? {},
    links: [],
    events: spec.events ?? [],
    duration: [0, (spec.end - spec.start) * 1_000_000],
    ended: true,
    resource: RESOURCE,
    instrumentationScope: SCOPE,
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  }
}

/** The root span's attributes, every AnyValue kind among them, as the decoders read them. */
export const ROOT_ATTRIBUTES = {
  'http.request.method': 'GET',
  'http.route': '/orders/:id',
  'http.response.status_code': 503,
  'server.ok': false,
  'retry.ratio': 0.25,
  'order.tags': ['a', 'b'],
}

/** One request: a root SERVER span and one child of every other kind. */
export function sampleSpans(): ReadableSpan[] {
  return [
    span({
      id: ROOT_ID,
      name: 'GET /orders/:id',
      kind: SpanKind.SERVER,
      start: 0,
      end: 250,
      attributes: ROOT_ATTRIBUTES,
      status: { code: SpanStatusCode.ERROR, message: 'upstream unavailable' },
    }),
    span({
      id: DB_ID,
      name: 'SELECT orders',
      kind: SpanKind.CLIENT,
      parent: ROOT_ID,
      start: 10,
      end: 12.5,
      attributes: { 'db.system': 'postgresql', 'db.statement': 'SELECT 1' },
      status: { code: SpanStatusCode.OK },
    }),
    span({ id: HTTP_ID, name: 'GET', kind: SpanKind.CLIENT, parent: ROOT_ID, start: 20, end: 60 }),
    span({
      id: QUEUE_ID,
      name: 'publish',
      kind: SpanKind.PRODUCER,
      parent: ROOT_ID,
      start: 61,
      end: 62,
    }),
    span({
      id: INTERNAL_ID,
      name: 'render',
      kind: SpanKind.INTERNAL,
      parent: ROOT_ID,
      start: 100,
      end: 200,
      events: [
        { name: 'cache.miss', time: at(110), attributes: { key: 'k1' } },
        {
          name: 'exception',
          time: at(150),
          attributes: {
            'exception.type': 'TypeError',
            'exception.message': "Cannot read properties of undefined (reading 'id')",
            'exception.stacktrace': 'TypeError: Cannot read …\n    at render (app.js:10:5)',
          },
        },
      ],
    }),
  ]
}

function log(fields: Partial<ReadableLogRecord>): ReadableLogRecord {
  return {
    hrTime: at(0),
    hrTimeObserved: at(1),
    resource: RESOURCE,
    instrumentationScope: SCOPE,
    attributes: {},
    droppedAttributesCount: 0,
    ...fields,
  }
}

/** Log records: a correlated string body, a structured body, bytes, and one without a time. */
export function sampleLogs(): ReadableLogRecord[] {
  return [
    log({
      severityNumber: SeverityNumber.WARN,
      severityText: 'WARN',
      body: 'disk almost full',
      attributes: { 'disk.free_bytes': 1024, 'disk.path': '/var' },
      spanContext: { traceId: TRACE_ID, spanId: ROOT_ID, traceFlags: TraceFlags.SAMPLED },
    }),
    log({
      severityNumber: SeverityNumber.ERROR3,
      body: { user: { id: 7, roles: ['admin', 'ops'] }, ok: false, ratio: 1.5 },
    }),
    log({ severityNumber: SeverityNumber.TRACE2, body: new Uint8Array([1, 2, 255]) }),
    log({ hrTime: [0, 0], severityNumber: SeverityNumber.FATAL, body: 'dying' }),
  ]
}
