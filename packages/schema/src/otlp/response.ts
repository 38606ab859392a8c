/**
 * The answers of OTLP/HTTP (https://opentelemetry.io/docs/specs/otlp/#otlphttp-response), in the
 * encoding of the request: an `Export…ServiceResponse` (with `partial_success` when some records
 * were rejected) for a 200, a `google.rpc.Status` for every refusal.
 */

/** The two OTLP/HTTP signals tis accepts. */
export type OtlpSignal = 'traces' | 'logs'

/** The body encoding of an OTLP exchange: the request's, which the answer must use too. */
export type OtlpEncoding = 'protobuf' | 'json'

/**
 * gRPC status codes used in `google.rpc.Status.code`, by the HTTP status they go with (OTLP's
 * HTTP answers carry the same `Status` message as its gRPC ones).
 */
export const OTLP_RPC_CODES: Readonly<Record<number, number>> = {
  400: 3, // INVALID_ARGUMENT
  401: 16, // UNAUTHENTICATED
  403: 7, // PERMISSION_DENIED
  404: 5, // NOT_FOUND
  413: 3, // INVALID_ARGUMENT (too large)
  415: 3,
  429: 8, // RESOURCE_EXHAUSTED
  503: 14, // UNAVAILABLE
}

const UTF8 = new TextEncoder()

function varint(value: number): number[] {
  const out: number[] = []
  let v = value
  while (v > 0x7f) {
    out.push((v & 0x7f) | 0x80)
    v = Math.floor(v / 128)
  }
  out.push(v)
  return out
}

/** Field `field` as a varint (wire type 0); omitted when 0, as proto3 does. */
function varintField(field: number, value: number): number[] {
  return value === 0 ? [] : [...varint(field << 3), ...varint(value)]
}

/** Field `field` as length-delimited bytes (wire type 2). */
function bytesField(field: number, bytes: Uint8Array | readonly number[]): number[] {
  return [...varint((field << 3) | 2), ...varint(bytes.length), ...bytes]
}

/** The JSON name of the rejected-record count of each signal's `partial_success`. */
const REJECTED = { traces: 'rejectedSpans', logs: 'rejectedLogRecords' } as const

/**
 * The 200 answer of an export: empty when everything was accepted, else `partial_success` with
 * the number of rejected spans or log records and why. Protobuf: `Export…ServiceResponse`
 * field 1, whose fields are 1 (the count, int64) and 2 (`error_message`).
 */
export function encodeOtlpExportResponse(
  signal: OtlpSignal,
  encoding: OtlpEncoding,
  rejected = 0,
  errorMessage = '',
): Uint8Array | Record<string, unknown> {
  const partial = rejected > 0 || errorMessage !== ''
  if (encoding === 'json') {
    return partial
      ? { partialSuccess: { [REJECTED[signal]]: rejected, errorMessage } }
      : ({} as Record<string, unknown>)
  }
  if (!partial) return new Uint8Array(0)
  const inner = [
    ...varintField(1, rejected),
    ...(errorMessage === '' ? [] : bytesField(2, UTF8.encode(errorMessage))),
  ]
  return Uint8Array.from(bytesField(1, inner))
}

/**
 * A refusal's body: `google.rpc.Status` with the gRPC code of `httpStatus` and `message`
 * (protobuf fields 1 and 2; no details).
 */
export function encodeOtlpStatus(
  httpStatus: number,
  message: string,
  encoding: OtlpEncoding,
): Uint8Array | Record<string, unknown> {
  const code = OTLP_RPC_CODES[httpStatus] ?? 2 // UNKNOWN
  if (encoding === 'json') return { code, message }
  return Uint8Array.from([...varintField(1, code), ...bytesField(2, UTF8.encode(message))])
}
