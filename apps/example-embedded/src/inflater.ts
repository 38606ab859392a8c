import { gunzipSync, inflateRawSync, inflateSync } from 'node:zlib'
import type { BodyInflater } from '@tis/ingest'

/**
 * Decompression is the host's: the engine hands `Content-Encoding: gzip` and `deflate` bodies to
 * this, with its cap on the output (`maxOutputLength`), and answers 413/400 itself.
 */
export const zlibInflater: BodyInflater = {
  inflate(bytes, encoding, maxBytes) {
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
