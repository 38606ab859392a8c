import type { JsonObject } from '../keys'
import { arr, defined, isoOf, num, obj, secondsOf, str, tagsOf, uuidOfEventId } from './common'
import { traceOf } from './event'

// Sentry's `transaction` item (https://develop.sentry.dev/sdk/data-model/event-payloads/transaction/)
// as native envelopes: one `transaction` event (the performance reads' row), and span events
// for the transaction's root span (`contexts.trace`) and each of its `spans`, with their trace,
// span and parent ids, in the span store.

/** The most spans kept of one transaction (Sentry's SDKs send at most 1,000). */
export const SENTRY_MAX_SPANS = 1_000

/** A Sentry span `op` as a tis span kind. */
export function spanKindOfOp(op: string | undefined, isRoot: boolean): string {
  const o = (op ?? '').toLowerCase()
  if (o === 'pageload' || o === 'navigation' || o.startsWith('ui.'))
    return isRoot ? 'browser' : 'render'
  if (o.startsWith('http.server') || o === 'function.nextjs' || o.startsWith('rpc.server'))
    return 'server'
  if (o.startsWith('db') || o.startsWith('sql')) return 'db'
  if (o.startsWith('http') || o === 'fetch' || o.startsWith('grpc') || o.startsWith('rpc'))
    return 'http'
  if (o.startsWith('cache')) return 'cache'
  if (o.startsWith('queue') || o.startsWith('topic') || o.startsWith('celery')) return 'queue'
  if (o.startsWith('resource')) return 'resource'
  if (o.includes('render') || o.startsWith('browser') || o.startsWith('paint')) return 'render'
  return isRoot ? 'server' : 'internal'
}

/** The duration between two Sentry timestamps in ms (never negative), else `undefined`. */
function durationOf(start: unknown, end: unknown): number | undefined {
  const s = secondsOf(start)
  const e = secondsOf(end)
  if (s === undefined || e === undefined) return undefined
  return Math.max(0, Math.round((e - s) * 1_000_000) / 1000)
}

/** An HTTP status a transaction or span reports: `http.response.status_code` or the tag. */
function httpStatus(
  data: JsonObject | undefined,
  tags: JsonObject | undefined,
): number | undefined {
  const v =
    data?.['http.response.status_code'] ?? data?.['http.status_code'] ?? tags?.['http.status_code']
  const n = typeof v === 'string' && /^\d{3}$/.test(v) ? Number(v) : num(v)
  return n !== undefined && Number.isInteger(n) && n >= 100 && n <= 999 ? n : undefined
}

/** One span (the root's trace context or an item of `spans`) as a native span envelope. */
function spanEnvelope(
  span: JsonObject,
  traceId: string | undefined,
  common: JsonObject,
  isRoot: boolean,
  name: string | undefined,
): { event: JsonObject } {
  const data = obj(span['data'])
  const op = str(span['op'])
  const start = span['start_timestamp']
  const end = span['timestamp']
  return {
    event: defined({
      ...common,
      event_type: 'span',
      name: name ?? str(span['description']) ?? op ?? 'span',
      trace_id: str(span['trace_id']) ?? traceId,
      span_id: str(span['span_id']),
      parent_span_id: str(span['parent_span_id']),
      kind: spanKindOfOp(op, isRoot),
      started_at: isoOf(start),
      ended_at: isoOf(end),
      duration_ms: durationOf(start, end),
      status: httpStatus(data, obj(span['tags'])) ?? str(span['status']),
      context: defined({
        op,
        data,
        tags: tagsOf(span['tags']),
        origin: str(span['origin']),
        protocol: 'sentry',
      }),
    }),
  }
}

/**
 * Sentry's `transaction` item payload as native envelopes: the transaction event first, then
 * the root span and the child spans (at most {@link SENTRY_MAX_SPANS}).
 */
export function sentryTransactionEnvelopes(tx: JsonObject): Array<{ event: JsonObject }> {
  const trace = traceOf(tx) ?? {}
  const traceId = str(trace['trace_id'])
  const name = str(tx['transaction'])
  const common = defined({ environment: str(tx['environment']), release: str(tx['release']) })
  const request = obj(tx['request'])
  const response = obj(obj(tx['contexts'])?.['response'])
  const status =
    httpStatus(obj(trace['data']), obj(tx['tags'])) ??
    num(response?.['status_code']) ??
    str(trace['status'])
  const root = { ...trace, start_timestamp: tx['start_timestamp'], timestamp: tx['timestamp'] }
  const transaction = {
    event: defined({
      ...common,
      event_type: 'transaction',
      event_id: uuidOfEventId(tx['event_id']),
      message: name ?? 'transaction',
      transaction_name: name,
      occurred_at: isoOf(tx['start_timestamp']) ?? isoOf(tx['timestamp']),
      duration_ms: durationOf(tx['start_timestamp'], tx['timestamp']),
      trace_id: traceId,
      span_id: str(trace['span_id']),
      status,
      context: defined({
        request: request
          ? defined({ method: str(request['method']), url: str(request['url']) })
          : undefined,
        tags: tagsOf(tx['tags']),
        contexts: obj(tx['contexts']),
        sdk: obj(tx['sdk']),
        op: str(trace['op']),
        protocol: 'sentry',
      }),
    }),
  }
  const spans = arr(tx['spans'])
    .slice(0, SENTRY_MAX_SPANS)
    .map(obj)
    .filter((s): s is JsonObject => s !== undefined)
    .map((s) => spanEnvelope(s, traceId, common, false, undefined))
  const rootSpan = trace['span_id'] ? [spanEnvelope(root, traceId, common, true, name)] : []
  return [transaction, ...rootSpan, ...spans]
}
