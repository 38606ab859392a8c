import { decodeBody } from './body-decoder'
import { type EngineRequest, type EngineResponse, json, readHeader } from './http'

/** Most envelopes in one `POST /api/v1/ingest_events/batch`. */
export const MAX_BATCH_ENVELOPES = 100
/** Default cap of a batch body after decompression, in bytes. */
export const DEFAULT_BATCH_MAX_BYTES = 1_048_576

const NDJSON_TYPES = ['application/x-ndjson', 'application/ndjson', 'application/jsonl']

/**
 * The lines of a batch body: NDJSON (`Content-Type: application/x-ndjson`, also `ndjson` and
 * `jsonl`), optionally compressed (`Content-Encoding: gzip` or `deflate`, see `decodeBody`), at most `maxBytes` once
 * decompressed and {@link MAX_BATCH_ENVELOPES} non-blank lines. Anything else is the answer.
 */
export function batchLines(
  request: EngineRequest,
  maxBytes: number,
): { lines: string[] } | EngineResponse {
  const type = (readHeader(request.headers, 'content-type') ?? '').split(';')[0]!.trim()
  if (!NDJSON_TYPES.includes(type.toLowerCase())) {
    return json(415, {
      error: 'Content-Type must be application/x-ndjson: one {"event":…} envelope per line',
    })
  }
  const decoded = decodeBody(request, maxBytes)
  if (!decoded.ok) {
    return decoded.status === 413
      ? tooLarge(maxBytes)
      : json(decoded.status, { error: decoded.problem })
  }
  const { text } = decoded
  const lines = text.split('\n').map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line))
  const envelopes = lines.filter((line) => line.trim() !== '')
  if (envelopes.length === 0) {
    return json(422, { errors: ['batch must contain at least one {"event":…} line'] })
  }
  if (envelopes.length > MAX_BATCH_ENVELOPES) {
    return json(422, {
      errors: [`batch has ${envelopes.length} envelopes (maximum is ${MAX_BATCH_ENVELOPES})`],
    })
  }
  return { lines: envelopes }
}

function tooLarge(maxBytes: number): EngineResponse {
  return json(413, { error: `batch is too large (maximum is ${maxBytes} bytes uncompressed)` })
}

/** The answer for one line of a batch, in line order. */
export type BatchLineResult =
  | {
      readonly index: number
      readonly status: 201 | 200
      readonly id: string
      readonly legacy_id: number | null
      readonly type?: 'span'
      readonly duplicate?: true
    }
  | { readonly index: number; readonly status: 400 | 403 | 429; readonly error: string }
  | { readonly index: number; readonly status: 422; readonly errors: readonly string[] }
