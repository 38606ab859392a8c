/** The compressed content codings a request body may arrive in (`Content-Encoding`). */
export type CompressedEncoding = 'gzip' | 'deflate'

/** Why a body could not be inflated: past the cap on the output, or not in its coding. */
export type InflateFailure = 'too-large' | 'invalid'

/**
 * The decompressed bytes of `bytes` in `encoding` with the platform's `DecompressionStream`:
 * gzip, and deflate zlib-wrapped (RFC 9110) or, failing that, raw. The output is counted as it
 * comes and the stream cancelled once it passes `maxBytes` (`'too-large'`), so a small bomb
 * never takes more memory than the cap; a body not in its coding is `'invalid'`.
 */
export async function decompress(
  bytes: Uint8Array,
  encoding: CompressedEncoding,
  maxBytes: number,
): Promise<Uint8Array | InflateFailure> {
  if (encoding === 'gzip') return inflate('gzip', bytes, maxBytes)
  const zlib = await inflate('deflate', bytes, maxBytes)
  return zlib === 'invalid' ? inflate('deflate-raw', bytes, maxBytes) : zlib
}

async function inflate(
  format: 'gzip' | 'deflate' | 'deflate-raw',
  bytes: Uint8Array,
  maxBytes: number,
): Promise<Uint8Array | InflateFailure> {
  const stream = new DecompressionStream(format)
  const writer = stream.writable.getWriter()
  // Their failures surface on the readable side, as the read's error.
  writer.write(bytes as Uint8Array<ArrayBuffer>).catch(() => {})
  writer.close().catch(() => {})
  const reader = stream.readable.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      size += value.byteLength
      if (size > maxBytes) {
        reader.cancel().catch(() => {})
        return 'too-large'
      }
      chunks.push(value)
    }
  } catch {
    return 'invalid'
  }
  return concatBytes(chunks, size)
}

/** The chunks as one array of `size` bytes (the one chunk itself when there is only one). */
export function concatBytes(chunks: readonly Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0] as Uint8Array
  const out = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    out.set(chunk, offset)
    offset += chunk.byteLength
  }
  return out
}
