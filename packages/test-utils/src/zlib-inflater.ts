import { gunzipSync, inflateRawSync, inflateSync } from 'node:zlib'

/**
 * A `BodyInflater` (@tis/ingest) over `node:zlib` for engine tests: the engine decodes nothing
 * itself, and the reference server's own one lives in apps/server/src/body-inflater.ts.
 */
export const zlibInflater = {
  inflate(
    bytes: Uint8Array,
    encoding: 'gzip' | 'deflate',
    maxBytes: number,
  ): Uint8Array | 'too-large' | 'invalid' {
    const options = { maxOutputLength: maxBytes }
    const attempts = encoding === 'gzip' ? [gunzipSync] : [inflateSync, inflateRawSync]
    for (const attempt of attempts) {
      try {
        return attempt(bytes, options)
      } catch (error) {
        if (error instanceof RangeError) return 'too-large'
      }
    }
    return 'invalid'
  },
}
