import { concatBytes } from './decompress'
import type { BodyKind } from './operation-types'

/** A body as an operation gets it, or `'too-large'` once a streamed one passes its cap. */
export type ReadBody = { text: string } | { bytes: Uint8Array } | Record<string, never>

const utf8 = new TextDecoder()

/** Whether the request names a `Content-Encoding` other than `identity`. */
function compressed(request: Request): boolean {
  const encoding = request.headers.get('content-encoding')
  if (encoding === null) return false
  const coding = encoding.trim().toLowerCase()
  return coding !== '' && coding !== 'identity'
}

/**
 * Reads the body of `request` as `kind` asks. A body with a `Content-Length` (checked against the
 * cap before, by the caller) is read whole: a Node host never delivers more than it declares, and
 * the host's own fast read path stays in use. A streamed (chunked) body is counted as it arrives
 * and abandoned as soon as it passes `cap`.
 */
export async function readBody(
  request: Request,
  kind: BodyKind,
  cap: number,
  declared: boolean,
): Promise<ReadBody | 'too-large'> {
  if (kind === 'none') return {}
  const asBytes = kind === 'bytes' || (kind === 'encoded' && compressed(request))
  if (declared || request.body === null) {
    return asBytes
      ? { bytes: new Uint8Array(await request.arrayBuffer()) }
      : { text: await request.text() }
  }
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > cap) {
      reader.cancel().catch(() => {})
      return 'too-large'
    }
    chunks.push(value)
  }
  const bytes = concatBytes(chunks, size)
  return asBytes ? { bytes } : { text: utf8.decode(bytes) }
}
