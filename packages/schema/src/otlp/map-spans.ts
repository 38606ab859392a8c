import type { SpanKind } from '../enums'
import {
  durationBetween,
  nanosToIso,
  resourceContext,
  resourceFields,
  spanEventId,
  stringAttribute,
} from './map-common'
import type { OtlpAttributes, OtlpScope, OtlpSpan, OtlpSpanEvent, OtlpTraces } from './types'

/** An event envelope as `parseEventEnvelope` accepts it: `{ event: { event_type, … } }`. */
export interface OtlpEventEnvelope {
  readonly event: Record<string, unknown>
}

const OTEL_KINDS = ['unspecified', 'internal', 'server', 'client', 'producer', 'consumer']
const OTEL_STATUSES = ['unset', 'ok', 'error']

/**
 * The tis span kind of an OTel `SpanKind`: SERVER → `server`; CLIENT → `db` when the span has a
 * `db.system` (or `db.system.name`) attribute, else `http`; PRODUCER and CONSUMER → `queue`;
 * INTERNAL, UNSPECIFIED and unknown values → `internal`.
 */
export function tisSpanKind(kind: number, attributes: OtlpAttributes): SpanKind {
  switch (kind) {
    case 2:
      return 'server'
    case 3:
      return attributes['db.system'] !== undefined || attributes['db.system.name'] !== undefined
        ? 'db'
        : 'http'
    case 4:
    case 5:
      return 'queue'
    default:
      return 'internal'
  }
}

/** The HTTP status of a span: `http.response.status_code`, else the older `http.status_code`. */
export function httpStatusOf(attributes: OtlpAttributes): number | undefined {
  for (const key of ['http.response.status_code', 'http.status_code']) {
    const value = attributes[key]
    const n = typeof value === 'string' ? Number(value) : value
    if (typeof n === 'number' && Number.isInteger(n) && n >= 100 && n <= 599) return n
  }
  return undefined
}

/**
 * Maps decoded OTLP traces to native event envelopes: every span → a `span` event; every root
 * SERVER span (no parent) → also a `transaction` event; every span event named `exception` →
 * an `error` event carrying the span's trace and span ids. See docs/guides/opentelemetry.md.
 */
export function otlpSpansToEnvelopes(decoded: OtlpTraces): OtlpEventEnvelope[] {
  return otlpSpanEnvelopeGroups(decoded).flat()
}

/**
 * {@link otlpSpansToEnvelopes} one span at a time: the envelopes of each span (its `span`
 * event, then its transaction and errors), so that a span is accepted or rejected as a whole.
 */
export function otlpSpanEnvelopeGroups(decoded: OtlpTraces): OtlpEventEnvelope[][] {
  const out: OtlpEventEnvelope[][] = []
  for (const { resource, scopeSpans } of decoded.resourceSpans) {
    for (const { scope, spans } of scopeSpans) {
      for (const span of spans) out.push(spanEnvelopes(span, resource, scope))
    }
  }
  return out
}

function spanEnvelopes(
  span: OtlpSpan,
  resource: OtlpAttributes,
  scope: OtlpScope,
): OtlpEventEnvelope[] {
  const shared = resourceFields(resource)
  const base = resourceContext(resource, scope)
  const startedAt = nanosToIso(span.startTimeUnixNano)
  const endedAt = nanosToIso(span.endTimeUnixNano)
  const durationMs = durationBetween(span.startTimeUnixNano, span.endTimeUnixNano)
  const ids: Record<string, string> = {}
  if (span.traceId !== '') ids['trace_id'] = span.traceId
  if (span.spanId !== '') ids['span_id'] = span.spanId
  const status = OTEL_STATUSES[span.status.code] ?? String(span.status.code)
  const otel = {
    kind: OTEL_KINDS[span.kind] ?? String(span.kind),
    status,
    ...(span.status.message === undefined ? {} : { status_message: span.status.message }),
  }
  const httpStatus = httpStatusOf(span.attributes)
  const eventId = (slot: number) => {
    const id = spanEventId(span.traceId, span.spanId, slot)
    return id === undefined ? {} : { event_id: id }
  }
  const spanEvent: Record<string, unknown> = {
    event_type: 'span',
    ...eventId(0),
    message: span.name === '' ? '(unnamed span)' : span.name,
    ...shared,
    ...ids,
    ...(span.parentSpanId === undefined ? {} : { parent_span_id: span.parentSpanId }),
    kind: tisSpanKind(span.kind, span.attributes),
    ...(startedAt === undefined ? {} : { started_at: startedAt }),
    ...(endedAt === undefined ? {} : { ended_at: endedAt }),
    duration_ms: durationMs,
    status: httpStatus ?? status,
    context: { ...base, attributes: span.attributes, otel },
  }
  const out: OtlpEventEnvelope[] = [{ event: spanEvent }]
  if (span.kind === 2 && span.parentSpanId === undefined) {
    out.push({
      event: {
        event_type: 'transaction',
        ...eventId(1),
        message: spanEvent['message'],
        transaction_name: spanEvent['message'],
        ...shared,
        ...ids,
        ...(startedAt === undefined ? {} : { occurred_at: startedAt }),
        duration_ms: durationMs,
        ...(httpStatus === undefined ? {} : { status: httpStatus }),
        context: {
          ...base,
          attributes: span.attributes,
          otel,
          ...(httpStatus === undefined ? {} : { status_code: httpStatus }),
        },
      },
    })
  }
  for (const [i, event] of span.events.entries()) {
    if (event.name === 'exception') {
      out.push(errorEnvelope(event, span, shared, { ...ids, ...eventId(2 + i) }, base))
    }
  }
  return out
}

function errorEnvelope(
  event: OtlpSpanEvent,
  span: OtlpSpan,
  shared: Record<string, string>,
  ids: Record<string, string>,
  base: Record<string, unknown>,
): OtlpEventEnvelope {
  const type = stringAttribute(event.attributes, 'exception.type')
  const text = stringAttribute(event.attributes, 'exception.message')
  const stacktrace = stringAttribute(event.attributes, 'exception.stacktrace')
  const occurredAt = nanosToIso(event.timeUnixNano) ?? nanosToIso(span.endTimeUnixNano)
  const message =
    type !== undefined && text !== undefined ? `${type}: ${text}` : (type ?? text ?? 'exception')
  return {
    event: {
      event_type: 'error',
      message,
      level: 'error',
      ...shared,
      ...ids,
      ...(occurredAt === undefined ? {} : { occurred_at: occurredAt }),
      context: {
        ...base,
        span_name: span.name,
        attributes: event.attributes,
        exception: {
          ...(type === undefined ? {} : { exception_class: type }),
          ...(text === undefined ? {} : { message: text }),
          ...(stacktrace === undefined ? {} : { stack: stacktrace }),
        },
      },
    },
  }
}
