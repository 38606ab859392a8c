// Decompression is the host's: the engine runs in any runtime and imports no `node:zlib`. The
// reference server passes one over node:zlib (apps/server/src/body-inflater.ts).

/** The compressed content codings a request body may arrive in (`Content-Encoding`). */
export type CompressedEncoding = 'gzip' | 'deflate'

/** Why a body could not be inflated: past the cap on the output, or not in its coding. */
export type InflateFailure = 'too-large' | 'invalid'

/**
 * Inflates compressed request bodies for the ingest API. Without one, a compressed body is
 * answered 415 (send it uncompressed); every other answer stays the engine's.
 */
export interface BodyInflater {
  /**
   * The decompressed bytes of `bytes` in `encoding` (`deflate` zlib-wrapped per RFC 9110, or
   * raw), or `'too-large'` as soon as the output would pass `maxBytes` — enforce it while
   * inflating, so a small bomb never takes more memory than the cap — or `'invalid'`.
   */
  inflate(
    bytes: Uint8Array,
    encoding: CompressedEncoding,
    maxBytes: number,
  ): Uint8Array | InflateFailure
}
