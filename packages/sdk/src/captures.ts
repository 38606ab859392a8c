import { describeException } from './exception'
import { generateSpanId, generateTraceId } from './ids'
import type { ExceptionOptions, Payload, SpanOptions } from './options'
import { isoTime } from './payload'

/** The fields of an `error` event describing `error` (never throws). */
export function errorFields(error: unknown, o: ExceptionOptions): Payload {
  let exception: Payload = {}
  try {
    exception = describeException(error)
  } catch {
    // describeException does not throw; the guard is for a hostile environment
  }
  return {
    message: String(exception['message'] || exception['class'] || 'Error'),
    level: o.level ?? 'error',
    fingerprint: o.fingerprint,
    context: { exception: { ...exception, exception_class: exception['class'] } },
  }
}

/** The fields of a `span` event: W3C ids (a fresh trace unless `traceId` is given) and times. */
export function spanFields(name: string, durationMs: number, o: SpanOptions): Payload {
  const started = isoTime(o.startedAt) ?? isoTime(Date.now() - durationMs)
  return {
    name,
    message: name,
    trace_id: o.traceId ?? generateTraceId(),
    span_id: o.spanId ?? generateSpanId(),
    parent_span_id: o.parentSpanId,
    kind: o.kind ?? 'internal',
    started_at: started,
    ended_at: isoTime(Date.parse(started!) + durationMs),
    duration_ms: durationMs,
    status: o.status,
  }
}
