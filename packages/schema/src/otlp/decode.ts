import { JsonShapeError } from './json-common'
import { decodeLogsJson } from './json-logs'
import { decodeTracesJson } from './json-traces'
import { decodeLogsProtobuf } from './proto-logs'
import { decodeTracesProtobuf } from './proto-traces'
import type { OtlpDecodeResult, OtlpLogs, OtlpTraces } from './types'
import { WireError } from './wire'

/** The two OTLP/HTTP encodings, by their media types. */
export const OTLP_CONTENT_TYPES = ['application/x-protobuf', 'application/json'] as const

const UTF8 = new TextDecoder('utf-8', { fatal: true })

/**
 * Decodes the body of `POST /v1/traces` (an `ExportTraceServiceRequest`), protobuf or OTLP/JSON
 * by `contentType` (parameters such as `; charset=utf-8` are ignored). Never throws: a truncated
 * or malformed body, or another content type, gives `{ ok: false, message }`.
 */
export function decodeOtlpTraces(
  body: Uint8Array,
  contentType: string,
): OtlpDecodeResult<OtlpTraces> {
  return decodeWith(body, contentType, decodeTracesProtobuf, decodeTracesJson)
}

/**
 * Decodes the body of `POST /v1/logs` (an `ExportLogsServiceRequest`), protobuf or OTLP/JSON;
 * see {@link decodeOtlpTraces}.
 */
export function decodeOtlpLogs(body: Uint8Array, contentType: string): OtlpDecodeResult<OtlpLogs> {
  return decodeWith(body, contentType, decodeLogsProtobuf, decodeLogsJson)
}

function decodeWith<T>(
  body: Uint8Array,
  contentType: string,
  fromProtobuf: (buf: Uint8Array) => T,
  fromJson: (parsed: unknown) => T,
): OtlpDecodeResult<T> {
  const mediaType = (contentType.split(';')[0] ?? '').trim().toLowerCase()
  try {
    if (mediaType === 'application/x-protobuf') return { ok: true, value: fromProtobuf(body) }
    if (mediaType === 'application/json') return { ok: true, value: fromJson(parseJson(body)) }
  } catch (error) {
    if (error instanceof WireError || error instanceof JsonShapeError) {
      return { ok: false, message: error.message }
    }
    // Deeply nested AnyValues can exhaust the stack: still a bad body, never a throw.
    return { ok: false, message: `malformed OTLP body: ${String(error)}` }
  }
  return {
    ok: false,
    message: `unsupported content type ${JSON.stringify(contentType)}: send ${OTLP_CONTENT_TYPES.join(' or ')}`,
  }
}

function parseJson(body: Uint8Array): unknown {
  let text: string
  try {
    text = UTF8.decode(body)
  } catch {
    throw new JsonShapeError('malformed OTLP/JSON: the body is not valid UTF-8')
  }
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new JsonShapeError(`malformed OTLP/JSON: ${(error as Error).message}`)
  }
}
