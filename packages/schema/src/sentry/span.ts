import type { JsonObject } from '../keys'
import { arr, defined, isoOf, num, obj, secondsOf, str } from './common'
import { spanKindOfOp } from './transaction'

// Sentry's `span` item (span streaming, the default of @sentry/node and @sentry/browser 10+:
// https://develop.sentry.dev/sdk/telemetry/spans/span-protocol/): a container `{ items }` of
// spans with typed attributes (`{ key: { type, value } }`). Each is a native span event; a
// segment span (`is_segment`, the root of what older SDKs sent as a transaction) is also a
// transaction event.

/** The most spans kept of one `span` item. */
export const SENTRY_MAX_STREAMED_SPANS = 1_000

/** Typed attributes (`{ key: { type, value } }`, or bare values) as plain values. */
export function attributeValues(v: unknown): JsonObject {
  return Object.fromEntries(
    Object.entries(obj(v) ?? {}).map(([k, a]) => {
      const o = obj(a)
      return [k, o && 'value' in o ? o['value'] : a]
    }),
  ) as JsonObject
}

/** An HTTP status of a span's attributes. */
function statusCodeOf(attributes: JsonObject): number | undefined {
  const v = attributes['http.response.status_code'] ?? attributes['http.status_code']
  const n = typeof v === 'string' && /^\d{3}$/.test(v) ? Number(v) : num(v)
  return n !== undefined && Number.isInteger(n) && n >= 100 && n <= 999 ? n : undefined
}

/** One streamed span as native envelopes: its span event and, for a segment, a transaction. */
function streamedSpanEnvelopes(span: JsonObject): Array<{ event: JsonObject }> {
  const attributes = attributeValues(span['attributes'])
  const text = (key: string) => str(attributes[key])
  const op = text('sentry.op')
  const start = span['start_timestamp']
  const end = span['end_timestamp'] ?? span['timestamp']
  const s = secondsOf(start)
  const e = secondsOf(end)
  const duration =
    s !== undefined && e !== undefined ? Math.max(0, Math.round((e - s) * 1e6) / 1e3) : undefined
  const isSegment = span['is_segment'] === true || !str(span['parent_span_id'])
  const name = str(span['name']) ?? op ?? 'span'
  const status = statusCodeOf(attributes) ?? str(span['status'])
  const common = defined({
    environment: text('sentry.environment'),
    release: text('sentry.release'),
    trace_id: str(span['trace_id']),
    span_id: str(span['span_id']),
  })
  const spanEvent = {
    event: defined({
      ...common,
      event_type: 'span',
      name,
      parent_span_id: str(span['parent_span_id']),
      kind: spanKindOfOp(op, isSegment),
      started_at: isoOf(start),
      ended_at: isoOf(end),
      duration_ms: duration,
      status,
      context: defined({ op, attributes, protocol: 'sentry' }),
    }),
  }
  if (!isSegment) return [spanEvent]
  const transaction = {
    event: defined({
      ...common,
      event_type: 'transaction',
      message: name,
      transaction_name: name,
      occurred_at: isoOf(start),
      duration_ms: duration,
      status,
      context: defined({ op, attributes, protocol: 'sentry' }),
    }),
  }
  return [transaction, spanEvent]
}

/** Sentry's `span` item payload (`{ items }`) as native envelopes. */
export function sentrySpanEnvelopes(container: JsonObject): Array<{ event: JsonObject }> {
  return arr(container['items'])
    .slice(0, SENTRY_MAX_STREAMED_SPANS)
    .map(obj)
    .filter((s): s is JsonObject => s !== undefined)
    .flatMap(streamedSpanEnvelopes)
}
