/**
 * An OTLP `AnyValue` as plain JSON: strings, booleans and doubles as themselves, an int64 as a
 * number when it is a safe integer and as its decimal string otherwise, an array as an array, a
 * kvlist as an object, bytes as their base64 text; an empty `AnyValue` as `null`.
 */
export type OtlpValue = string | number | boolean | null | OtlpValue[] | OtlpAttributes

/** OTLP attributes (a list of `KeyValue`) as an object, in wire order; a repeated key wins last. */
export interface OtlpAttributes {
  [key: string]: OtlpValue
}

/** The result of decoding an OTLP body: never thrown, never partial. */
export type OtlpDecodeResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly message: string }

/** An instrumentation scope (`InstrumentationScope`): the library that produced the data. */
export interface OtlpScope {
  readonly name: string
  readonly version?: string
}

/** One span event (`Span.Event`), such as an `exception` event. */
export interface OtlpSpanEvent {
  readonly name: string
  /** Unix time in nanoseconds, as a decimal string; `"0"` when unset. */
  readonly timeUnixNano: string
  readonly attributes: OtlpAttributes
}

/** One span, ids as lower-case hex and times as decimal strings of Unix nanoseconds. */
export interface OtlpSpan {
  readonly traceId: string
  readonly spanId: string
  /** Absent for a root span. */
  readonly parentSpanId?: string
  readonly name: string
  /** OTel `SpanKind`: 0 unspecified, 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  readonly kind: number
  readonly startTimeUnixNano: string
  readonly endTimeUnixNano: string
  readonly attributes: OtlpAttributes
  readonly events: readonly OtlpSpanEvent[]
  /** OTel `StatusCode`: 0 unset, 1 ok, 2 error. */
  readonly status: { readonly code: number; readonly message?: string }
}

/** The spans of one scope and one resource. */
export interface OtlpResourceSpans {
  readonly resource: OtlpAttributes
  readonly scopeSpans: readonly { readonly scope: OtlpScope; readonly spans: readonly OtlpSpan[] }[]
}

/** A decoded `ExportTraceServiceRequest`. */
export interface OtlpTraces {
  readonly resourceSpans: readonly OtlpResourceSpans[]
}

/** One log record (`LogRecord`). */
export interface OtlpLogRecord {
  /** Unix time in nanoseconds, as a decimal string; `"0"` when unset. */
  readonly timeUnixNano: string
  readonly observedTimeUnixNano: string
  /** OTel `SeverityNumber`, 0 (unspecified) to 24. */
  readonly severityNumber: number
  readonly severityText?: string
  /** The body; absent when the record has none. */
  readonly body?: OtlpValue
  readonly attributes: OtlpAttributes
  readonly traceId?: string
  readonly spanId?: string
  readonly eventName?: string
}

/** The log records of one scope and one resource. */
export interface OtlpResourceLogs {
  readonly resource: OtlpAttributes
  readonly scopeLogs: readonly {
    readonly scope: OtlpScope
    readonly logRecords: readonly OtlpLogRecord[]
  }[]
}

/** A decoded `ExportLogsServiceRequest`. */
export interface OtlpLogs {
  readonly resourceLogs: readonly OtlpResourceLogs[]
}
