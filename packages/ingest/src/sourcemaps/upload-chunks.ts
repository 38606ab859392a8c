import { createHash } from 'node:crypto'
import { type EngineRequest, type EngineResponse, readHeader } from '../http'
import { decompress } from '../http/decompress'
import { caller, isResponse, type UploadContext } from './upload-context'
import { ok, requestOrigin, sentryError } from './upload-respond'

// Sentry's chunk upload (design note §2.3, §2.6): the options a client reads first, then
// multipart POSTs of chunks named by their SHA-1. Chunks are kept per user until assembly.

/** What the server advertises: `artifact_bundles_v2` makes sentry-cli 2.x pre-flight assemble. */
export const CHUNK_ACCEPT = ['release_files', 'artifact_bundles', 'artifact_bundles_v2'] as const

const SHA1 = /^[0-9a-f]{40}$/

/** SHA-1 hex of bytes. */
export function sha1Hex(bytes: Uint8Array): string {
  return createHash('sha1').update(bytes).digest('hex')
}

/** `GET /api/0/organizations/{org}/chunk-upload/`: the upload options. */
export async function chunkOptions(
  ctx: UploadContext,
  request: EngineRequest,
): Promise<EngineResponse> {
  const auth = await caller(ctx, request)
  if (isResponse(auth)) return auth
  const org = encodeURIComponent(request.params?.['org'] ?? 'tis')
  const { chunkSize } = ctx.limits
  return ok({
    url: `${requestOrigin(request, ctx.publicUrl)}/api/0/organizations/${org}/chunk-upload/`,
    chunkSize,
    chunksPerRequest: 1,
    maxRequestSize: chunkSize,
    concurrency: 4,
    hashAlgorithm: 'sha1',
    // gzip only, never zstd (the JS uploader then sends a request-level
    // Content-Encoding that a body-decoding proxy would strip).
    compression: ['gzip'],
    accept: CHUNK_ACCEPT,
  })
}

type Chunk = { readonly sha1: string; readonly content: Uint8Array }

/** One part's chunk, its SHA-1 checked, or the refusal naming it. */
async function readPart(
  ctx: UploadContext,
  name: string,
  part: NonNullable<ReturnType<FormData['get']>>,
): Promise<Chunk | EngineResponse> {
  if (typeof part === 'string') {
    return sentryError(400, `Part "${name}" is not a file: send each chunk as a file part.`)
  }
  const sha1 = part.name.trim().toLowerCase()
  if (!SHA1.test(sha1)) {
    return sentryError(
      400,
      `Chunk "${part.name}": its filename must be the chunk's SHA-1 (40 hex).`,
    )
  }
  const sent = new Uint8Array(await part.arrayBuffer())
  let content: Uint8Array = sent
  const { chunkSize } = ctx.limits
  if (name === 'file_gzip') {
    const inflated = await decompress(sent, 'gzip', chunkSize)
    if (inflated === 'too-large') return tooLarge(sha1, chunkSize)
    if (inflated === 'invalid') return sentryError(400, `Chunk ${sha1} is not valid gzip.`)
    content = inflated
  }
  if (content.byteLength > chunkSize) return tooLarge(sha1, chunkSize)
  const actual = sha1Hex(content)
  if (actual !== sha1) {
    return sentryError(400, `Chunk ${sha1} is corrupt: its content hashes to ${actual}.`)
  }
  return { sha1, content }
}

const tooLarge = (sha1: string, max: number) =>
  sentryError(413, `Chunk ${sha1} is larger than the chunk size (${max} bytes).`)

/** `POST /api/0/organizations/{org}/chunk-upload/`: stores chunks, all or none. */
export async function uploadChunks(
  ctx: UploadContext,
  request: EngineRequest,
): Promise<EngineResponse> {
  const auth = await caller(ctx, request)
  if (isResponse(auth)) return auth
  const type = readHeader(request.headers, 'content-type') ?? ''
  if (!/^multipart\/form-data/i.test(type) || !request.bytes) {
    return sentryError(400, 'Send the chunks as multipart/form-data (parts `file` or `file_gzip`).')
  }
  let form: FormData
  try {
    form = await new Response(request.bytes as Uint8Array<ArrayBuffer>, {
      headers: { 'content-type': type },
    }).formData()
  } catch {
    return sentryError(400, 'The body is not a valid multipart/form-data form.')
  }
  const chunks: Chunk[] = []
  let total = 0
  for (const [name, part] of form.entries()) {
    if (name === 'file_brotli')
      return sentryError(415, 'brotli chunks are not supported: use gzip.')
    if (name !== 'file' && name !== 'file_gzip') continue
    const chunk = await readPart(ctx, name, part)
    if (isResponse(chunk)) return chunk
    total += chunk.content.byteLength
    if (total > ctx.limits.chunkSize) {
      return sentryError(
        413,
        `The request holds more than ${ctx.limits.chunkSize} bytes of chunks.`,
      )
    }
    chunks.push(chunk)
  }
  if (chunks.length === 0) {
    return sentryError(400, 'No chunk in the request: send parts named `file` or `file_gzip`.')
  }
  await ctx.store.putChunks(auth.user.id, chunks, ctx.now())
  return { status: 200, headers: {}, body: null }
}
