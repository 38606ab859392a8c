import { MAX_BATCH_ENVELOPES, missingEnvelopeMessage } from '@tis/schema'
import { bodyEncoding, decodeBody, utf8Length } from '../body-decoder'
import { type EngineRequest, type EngineResponse, json, readHeader } from '../http'

// Default of {@link BatchLimits.maxEnvelopes}: ten times what Logister's server takes (every
// Logister client sends at most 100: the Python client chunks by 100, the JS client by 50); it
// lives with the batch answer's schema, whose description names it.
export { MAX_BATCH_ENVELOPES }

/** The size caps of a batch request. */
export interface BatchLimits {
  /**
   * Largest body as sent, compressed or not (Logister's wire cap; its Python client splits a
   * batch whose gzip body is over 2 MiB). @default 2097152
   */
  readonly maxBodyBytes: number
  /**
   * Largest body once decompressed (the Python client splits past 8 MiB uncompressed); keeps
   * a decompression bomb from taking more memory than this. @default 8388608
   */
  readonly maxDecompressedBytes: number
  /** Largest single line (one envelope), in bytes. @default 1048576 */
  readonly maxLineBytes: number
  /** Most envelopes (non-blank lines) in one batch. @default 1000 */
  readonly maxEnvelopes?: number
}

/** The default {@link BatchLimits}. */
export const DEFAULT_BATCH_LIMITS: BatchLimits = {
  maxBodyBytes: 2 * 1024 * 1024,
  maxDecompressedBytes: 8 * 1024 * 1024,
  maxLineBytes: 1024 * 1024,
  maxEnvelopes: MAX_BATCH_ENVELOPES,
}

const NDJSON_TYPES = ['application/x-ndjson', 'application/ndjson', 'application/jsonl']

/**
 * The lines of a batch body: NDJSON (`Content-Type: application/x-ndjson`, also `ndjson` and
 * `jsonl`), optionally compressed (`Content-Encoding: gzip` or `deflate`, see `decodeBody`),
 * within `limits` and at most `limits.maxEnvelopes` non-blank lines. Anything else is the answer: 415, 413 or 400.
 */
export async function batchLines(
  request: EngineRequest,
  limits: BatchLimits,
): Promise<{ lines: string[] } | EngineResponse> {
  const type = (readHeader(request.headers, 'content-type') ?? '').split(';')[0]!.trim()
  if (!NDJSON_TYPES.includes(type.toLowerCase())) {
    return json(415, {
      error: 'Content-Type must be application/x-ndjson: one {"event":…} envelope per line',
    })
  }
  // A host without the raw bytes passes a compressed body as a binary (latin1) string.
  const compressed = bodyEncoding(request) !== 'identity'
  const text = request.text ?? ''
  const sent = request.bytes?.byteLength ?? (compressed ? text.length : utf8Length(text))
  if (sent > limits.maxBodyBytes) {
    return json(413, {
      error: `batch is too large (maximum is ${limits.maxBodyBytes} bytes as sent)`,
    })
  }
  const decoded = await decodeBody(request, limits.maxDecompressedBytes)
  if (!decoded.ok) {
    return decoded.status === 413
      ? tooLarge(limits.maxDecompressedBytes)
      : json(decoded.status, { error: decoded.problem })
  }
  return splitLines(decoded.text, limits.maxLineBytes, limits.maxEnvelopes ?? MAX_BATCH_ENVELOPES)
}

/** The non-blank lines of the NDJSON text, or the 400/413 for none, too many or one too long. */
function splitLines(
  text: string,
  maxLineBytes: number,
  maxEnvelopes: number,
): { lines: string[] } | EngineResponse {
  const lines = text
    .split('\n')
    .map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line))
    .filter((line) => line.trim() !== '')
  if (lines.length === 0) {
    return json(400, { error: `${missingEnvelopeMessage('event')} (the batch has no line)` })
  }
  // 413, not 422: Logister's clients answer a 413 by splitting the batch in halves.
  if (lines.length > maxEnvelopes) {
    return json(413, {
      error: `batch has ${lines.length} envelopes (maximum is ${maxEnvelopes})`,
    })
  }
  for (const [index, line] of lines.entries()) {
    // A UTF-16 length over the cap may still fit in UTF-8 bytes: count those only then.
    if (line.length * 3 > maxLineBytes && utf8Length(line) > maxLineBytes) {
      return json(413, {
        error: `envelope ${index + 1} of the batch is too large (maximum is ${maxLineBytes} bytes per envelope)`,
      })
    }
  }
  return { lines }
}

function tooLarge(maxBytes: number): EngineResponse {
  return json(413, { error: `batch is too large (maximum is ${maxBytes} bytes uncompressed)` })
}
