import { type EngineRequest, readHeader } from './http'
import { type CompressedEncoding, decompress } from './http/decompress'

/** The content codings a request body may arrive in (`Content-Encoding`). */
export type BodyEncoding = 'identity' | CompressedEncoding

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

// `ignoreBOM` keeps a leading BOM in the text, as the body arrived.
const utf8 = new TextDecoder('utf-8', { ignoreBOM: true })
const encoder = new TextEncoder()

/** The UTF-8 length of `text`, in bytes. */
export function utf8Length(text: string): number {
  return encoder.encode(text).byteLength
}

/** A binary (Latin-1) string back to its bytes: how a host without raw bytes passes them. */
export function latin1Bytes(text: string): Uint8Array {
  return Uint8Array.from(text, (char) => char.charCodeAt(0) & 0xff)
}

/** Decoded body bytes, or why they cannot be decoded (see {@link DecodedBody}). */
export type DecodedBytes =
  | { readonly ok: true; readonly bytes: Uint8Array; readonly encoding: BodyEncoding }
  | { readonly ok: false; readonly status: 400 | 413 | 415; readonly problem: string }

/**
 * The bytes of a request body in any {@link BodyEncoding}, at most `maxBytes` once decoded: the
 * raw `bytes` (or, failing them, `text` as UTF-8 when uncompressed, read back as Latin-1 bytes
 * when compressed), decompressed with a cap on the output (`decompress`), so a small
 * compressed body cannot inflate past the cap (413). A body that is not in its declared coding
 * is a 400; an unknown coding a 415.
 */
export async function decodeBodyBytes(
  request: EngineRequest,
  maxBytes: number,
): Promise<DecodedBytes> {
  const encoding = bodyEncoding(request)
  if (encoding === null) {
    const sent = JSON.stringify(readHeader(request.headers, 'content-encoding'))
    const problem = `Content-Encoding ${sent} is not supported (send gzip, deflate or none)`
    return { ok: false, status: 415, problem }
  }
  const tooLarge = {
    ok: false,
    status: 413,
    problem: `the body is larger than ${maxBytes} bytes once decompressed`,
  } as const
  if (encoding === 'identity') {
    const bytes = request.bytes ?? encoder.encode(request.text ?? '')
    if (bytes.byteLength > maxBytes) return tooLarge
    return { ok: true, bytes, encoding }
  }
  const bytes = request.bytes ?? latin1Bytes(request.text ?? '')
  const inflated = await decompress(bytes, encoding, maxBytes)
  if (inflated === 'too-large') return tooLarge
  if (inflated === 'invalid') {
    return { ok: false, status: 400, problem: `the body is not valid ${encoding}` }
  }
  return { ok: true, bytes: inflated, encoding }
}

/** The text (UTF-8) of a request body in any {@link BodyEncoding}: {@link decodeBodyBytes}, decoded. */
export async function decodeBody(request: EngineRequest, maxBytes: number): Promise<DecodedBody> {
  // An uncompressed body given as text stays that text (no round trip through bytes).
  if (request.bytes === undefined && bodyEncoding(request) === 'identity') {
    const text = request.text ?? ''
    if (utf8Length(text) > maxBytes) {
      return {
        ok: false,
        status: 413,
        problem: `the body is larger than ${maxBytes} bytes once decompressed`,
      }
    }
    return { ok: true, text, encoding: 'identity' }
  }
  const decoded = await decodeBodyBytes(request, maxBytes)
  if (!decoded.ok) return decoded
  return { ok: true, text: utf8.decode(decoded.bytes), encoding: decoded.encoding }
}
