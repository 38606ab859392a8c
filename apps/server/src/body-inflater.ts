import { gunzipSync, inflateRawSync, inflateSync } from 'node:zlib'
import type { BodyInflater } from '@tis/ingest'

const isTooLarge = (error: unknown) =>
  error instanceof RangeError || (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE'

/**
 * The server's {@link BodyInflater} over `node:zlib`: gzip, and deflate zlib-wrapped (RFC 9110)
 * or, failing that, raw. `maxOutputLength` stops inflating at the cap, so a decompression bomb
 * never takes more memory than the cap.
 */
export function createZlibInflater(): BodyInflater {
  return {
    inflate(bytes, encoding, maxBytes) {
      const options = { maxOutputLength: maxBytes }
      try {
        if (encoding === 'gzip') return gunzipSync(bytes, options)
        try {
          return inflateSync(bytes, options)
        } catch (error) {
          if (isTooLarge(error)) throw error
          return inflateRawSync(bytes, options)
        }
      } catch (error) {
        return isTooLarge(error) ? 'too-large' : 'invalid'
      }
    },
  }
}
