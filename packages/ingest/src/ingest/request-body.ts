import { missingEnvelopeMessage } from '@tis/schema'
import { bodyEncoding, decodeBody } from '../body-decoder'
import { type EngineRequest, type EngineResponse, json } from '../http'

/** Default cap of a single-record body once decompressed, in bytes. */
export const DEFAULT_MAX_BODY_BYTES = 1_048_576

/**
 * The JSON body of a single-record request (`ingest_events`, `check_ins`, `deployments`,
 * `mobile_ingest_tokens`), or its answer: a 400 naming the envelope for text that is not JSON or
 * a body not in its declared coding, 413 for a compressed body over `maxBytes` once
 * decompressed, 415 for an unknown `Content-Encoding`. A body given parsed (`body`) is used as
 * is; a compressed one (`Content-Encoding: gzip` or `deflate`) is inflated like a batch's.
 */
export async function parseBody(
  request: EngineRequest,
  envelope: string,
  maxBytes: number,
): Promise<{ value: unknown } | EngineResponse> {
  let text = request.text
  if (request.bytes !== undefined || (text !== undefined && bodyEncoding(request) !== 'identity')) {
    const decoded = await decodeBody(request, maxBytes)
    if (!decoded.ok) {
      if (decoded.status === 413) {
        return json(413, {
          error: `request body is too large (maximum is ${maxBytes} bytes once decompressed)`,
        })
      }
      if (decoded.status === 415) return json(415, { error: decoded.problem })
      return json(400, { error: `${missingEnvelopeMessage(envelope)} (${decoded.problem})` })
    }
    text = decoded.text
  }
  if (text === undefined) return { value: request.body }
  try {
    return { value: JSON.parse(text) }
  } catch {
    return json(400, {
      error: `${missingEnvelopeMessage(envelope)} (the request body is not valid JSON)`,
    })
  }
}
