// The upload half of Sentry's protocol that tis serves under /api/0/ (the same requests
// `sentry-cli sourcemaps upload` makes): chunk options, a pre-flight assemble that names the
// missing chunks, the chunks themselves (multipart, gzipped), then assemble until it is final.
import { createHash } from 'node:crypto'
import { gzipSync } from 'node:zlib'
import { type ApiClient, ApiError } from './client'

/** The org slug in the paths: tis accepts any and maps it to the token's tenant. */
const ORG = 'tis'

/** The answer of `GET /api/0/organizations/{org}/chunk-upload/` (the fields read here). */
interface ChunkOptions {
  readonly url: string
  readonly chunkSize: number
  readonly chunksPerRequest: number
  readonly maxRequestSize: number
  readonly compression?: readonly string[]
}

/** The answer of `POST …/artifactbundle/assemble/`. */
export interface AssembleAnswer {
  readonly state: 'ok' | 'error' | 'not_found' | 'created' | 'assembling'
  readonly missingChunks: readonly string[]
  readonly detail?: string | null
}

/** What {@link uploadBundle} sends with the bundle. */
export interface UploadTarget {
  readonly project: string
  readonly release?: string | undefined
  readonly dist?: string | undefined
  /** Pause between polls of a pending assembly. @default 1000 */
  readonly pollMs?: number
  /** Polls of a pending assembly before giving up. @default 60 */
  readonly maxPolls?: number
}

/** How an upload went: the final assemble answer and the chunks sent. */
export interface UploadOutcome {
  readonly checksum: string
  readonly chunks: number
  readonly chunksSent: number
  readonly answer: AssembleAnswer
}

const sha1 = (bytes: Uint8Array) => createHash('sha1').update(bytes).digest('hex')

/** Splits `bytes` into `size`-byte chunks: their SHA-1s in order (repeats kept) and contents. */
function chunksOf(bytes: Uint8Array, size: number) {
  const order: string[] = []
  const contents = new Map<string, Uint8Array>()
  for (let at = 0; at < bytes.length; at += size) {
    const chunk = bytes.subarray(at, at + size)
    const name = sha1(chunk)
    order.push(name)
    contents.set(name, chunk)
  }
  return { order, contents }
}

/** Sends the chunks named in batches the server's options allow (count and uncompressed bytes). */
async function sendChunks(
  client: ApiClient,
  options: ChunkOptions,
  chunks: readonly [string, Uint8Array][],
): Promise<void> {
  const gzip = options.compression?.includes('gzip') ?? false
  // The server names its own absolute URL; the path is posted to the origin the CLI was given.
  const path = new URL(options.url, client.baseUrl).pathname
  for (let i = 0; i < chunks.length; ) {
    const form = new FormData()
    let bytes = 0
    let count = 0
    while (i < chunks.length && count < Math.max(1, options.chunksPerRequest)) {
      const [name, chunk] = chunks[i]!
      if (count > 0 && bytes + chunk.length > options.maxRequestSize) break
      const body = gzip ? gzipSync(chunk) : chunk
      form.append(
        gzip ? 'file_gzip' : 'file',
        new Blob([body], { type: 'application/octet-stream' }),
        name,
      )
      bytes += chunk.length
      count++
      i++
    }
    await client.request('POST', path, form)
  }
}

/**
 * Uploads one artifact bundle to `target.project`: pre-flight assemble, the chunks it reports
 * missing, then assemble again until `ok` or `error` (polling while it is pending).
 * @throws {ApiError} when the server refuses a request or the bundle
 */
export async function uploadBundle(
  client: ApiClient,
  bundle: Uint8Array,
  target: UploadTarget,
): Promise<UploadOutcome> {
  const options = (await client.request(
    'GET',
    `/api/0/organizations/${ORG}/chunk-upload/`,
  )) as ChunkOptions
  if (!(options?.chunkSize > 0))
    throw new ApiError(502, ['the server sent no chunk-upload options'])
  const { order, contents } = chunksOf(bundle, options.chunkSize)
  const checksum = sha1(bundle)
  const body = {
    checksum,
    chunks: order,
    projects: [target.project],
    ...(target.release !== undefined && { version: target.release }),
    ...(target.dist !== undefined && { dist: target.dist }),
  }
  const assemble = () =>
    client.request(
      'POST',
      `/api/0/organizations/${ORG}/artifactbundle/assemble/`,
      body,
    ) as Promise<AssembleAnswer>
  let answer = await assemble()
  let chunksSent = 0
  if (answer.state === 'not_found' || answer.missingChunks.length > 0) {
    const missing = [...new Set(answer.missingChunks)].map(
      (name) => [name, contents.get(name)] as const,
    )
    const known = missing.filter((m): m is [string, Uint8Array] => m[1] !== undefined)
    await sendChunks(client, options, known)
    chunksSent = known.length
    answer = await assemble()
  }
  for (let polls = 0; answer.state !== 'ok' && answer.state !== 'error'; polls++) {
    if (answer.state === 'not_found' || polls >= (target.maxPolls ?? 60)) {
      throw new ApiError(502, [`the bundle was not assembled (state ${answer.state})`])
    }
    await new Promise((resolve) => setTimeout(resolve, target.pollMs ?? 1000))
    answer = await assemble()
  }
  if (answer.state === 'error') {
    throw new ApiError(422, [
      `the server refused the bundle: ${answer.detail ?? 'no detail given'}`,
    ])
  }
  return { checksum, chunks: contents.size, chunksSent, answer }
}
