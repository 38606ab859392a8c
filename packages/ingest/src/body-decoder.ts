import { gunzipSync, inflateRawSync, inflateSync } from 'node:zlib'
import { type EngineRequest, readHeader } from './http'

/** The content codings a request body may arrive in (`Content-Encoding`). */
export type BodyEncoding = 'identity' | 'gzip' | 'deflate'

/** A decoded body, or why it cannot be decoded (each caller words its own answer). */
export type DecodedBody =
  | { readonly ok: true; readonly text: string; readonly encoding: BodyEncoding }
  | { readonly ok: false; readonly status: 400 | 413 | 415; readonly problem: string }

/**
 * The coding `Content-Encoding` names, case-insensitively: none, `identity`, `gzip` (also
 * `x-gzip`, RFC 9110 §8.4.1.3) or `deflate`; `null` for anything else, a list of codings included.
 */
export function bodyEncoding(request: EngineRequest): BodyEncoding | null {
  const value = (readHeader(request.headers, 'content-encoding') ?? '').trim().toLowerCase()
  if (value === '' || value === 'identity') return 'identity'
  if (value === 'gzip' || value === 'x-gzip') return 'gzip'
  if (value === 'deflate') return 'deflate'
  return null
}

const isTooLarge = (error: unknown) =>
  error instanceof RangeError || (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE'

/** Inflates `bytes` to at most `maxBytes`; deflate is zlib-wrapped (RFC 9110), else raw. */
function inflate(bytes: Uint8Array, encoding: 'gzip' | 'deflate', maxBytes: number): Buffer {
  const options = { maxOutputLength: maxBytes }
  if (encoding === 'gzip') return gunzipSync(bytes, options)
  try {
    return inflateSync(bytes, options)
  } catch (error) {
    if (isTooLarge(error)) throw error
    return inflateRawSync(bytes, options)
  }
}

/**
 * The text of a request body in any {@link BodyEncoding}, at most `maxBytes` once decoded: the
 * raw `bytes` (or, failing them, `text` read back as Latin-1 bytes), decompressed with a cap on
 * the output, so a small compressed body cannot inflate past the cap (413). A body that is not
 * in its declared coding is a 400; an unknown coding a 415.
 */
export function decodeBody(request: EngineRequest, maxBytes: number): DecodedBody {
  const encoding = bodyEncoding(request)
  if (encoding === null) {
    const sent = readHeader(request.headers, 'content-encoding')
    return {
      ok: false,
      status: 415,
      problem: `Content-Encoding ${JSON.stringify(sent)} is not supported (send gzip, deflate or none)`,
    }
  }
  const tooLarge = {
    ok: false,
    status: 413,
    problem: `the body is larger than ${maxBytes} bytes once decompressed`,
  } as const
  if (encoding === 'identity') {
    const { bytes } = request
    if (bytes !== undefined) {
      if (bytes.byteLength > maxBytes) return tooLarge
      return { ok: true, text: Buffer.from(bytes).toString('utf8'), encoding }
    }
    const text = request.text ?? ''
    if (Buffer.byteLength(text, 'utf8') > maxBytes) return tooLarge
    return { ok: true, text, encoding }
  }
  const bytes = request.bytes ?? Buffer.from(request.text ?? '', 'latin1')
  try {
    return { ok: true, text: inflate(bytes, encoding, maxBytes).toString('utf8'), encoding }
  } catch (error) {
    if (isTooLarge(error)) return tooLarge
    return { ok: false, status: 400, problem: `the body is not valid ${encoding}` }
  }
}
