import type { EngineRequest, EngineResponse } from '../http'
import type { Authenticated } from '../management/access'
import type { ProjectRecord } from '../ports'
import { normalDebugId, type ParsedBundle, parseArtifactBundle } from './bundle'
import { sha1Hex } from './upload-chunks'
import { caller, isResponse, managedProjects, type UploadContext } from './upload-context'
import { jsonBody, ok } from './upload-respond'

// `POST /api/0/organizations/{org}/artifactbundle/assemble/` (design note §2.5). tis assembles
// in the request, so the answer is final: `ok`, or `error` with a detail; `not_found` with the
// real missing list before the chunks are there (never `created` + `[]`: sentry-cli 3.x and the
// JS uploader would then upload nothing and exit 0).

const SHA1 = /^[0-9a-f]{40}$/i

/** An assemble request, checked. */
export interface AssembleRequest {
  readonly checksum: string
  readonly chunks: readonly string[]
  readonly projects: readonly string[]
  readonly version: string | null
  readonly dist: string | null
}

const optionalText = (v: unknown) =>
  typeof v === 'string' && v.trim() !== '' && v !== 'undefined' ? v : null

/** Checks the body; a message for the 400 `{"error"}` otherwise. */
export function readAssembleRequest(body: unknown): AssembleRequest | string {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return 'The body must be a JSON object {checksum, chunks, projects}.'
  }
  const b = body as Record<string, unknown>
  if (typeof b['checksum'] !== 'string' || !SHA1.test(b['checksum'])) {
    return '"checksum" must be the SHA-1 (40 hex) of the bundle.'
  }
  const chunks = b['chunks']
  if (!Array.isArray(chunks) || chunks.some((c) => typeof c !== 'string' || !SHA1.test(c))) {
    return '"chunks" must be a list of chunk SHA-1s (40 hex).'
  }
  const projects = b['projects']
  if (
    !Array.isArray(projects) ||
    projects.length === 0 ||
    projects.some((p) => typeof p !== 'string')
  ) {
    return '"projects" must be a non-empty list of tis project ids.'
  }
  for (const key of ['version', 'dist']) {
    if (b[key] !== undefined && b[key] !== null && typeof b[key] !== 'string') {
      return `"${key}" must be a string.`
    }
  }
  return {
    checksum: b['checksum'].toLowerCase(),
    chunks: chunks.map((c: string) => c.toLowerCase()),
    projects: projects as string[],
    version: optionalText(b['version']),
    dist: optionalText(b['dist']),
  }
}

/** The assemble answer; `ok` and `error` are final for every client. */
const state = (name: 'ok' | 'not_found', missingChunks: readonly string[] = []) =>
  ok({ state: name, missingChunks, detail: null })
/** A final `error` state, answered 400 so that every client stops with the detail. */
const failed = (detail: string, status = 400): EngineResponse => ({
  status,
  headers: {},
  body: { state: 'error', missingChunks: [], detail, error: detail },
})

/** Bundle ID when the manifest has none: the checksum's first 32 hex as a UUID. */
const idFromChecksum = (c: string) =>
  `${c.slice(0, 8)}-${c.slice(8, 12)}-${c.slice(12, 16)}-${c.slice(16, 20)}-${c.slice(20, 32)}`

/** Joins the caller's chunks in order, or `null` when one went missing meanwhile. */
async function join(ctx: UploadContext, owner: string, chunks: readonly string[]) {
  const stored = await ctx.store.readChunks(owner, [...new Set(chunks)])
  const parts = chunks.map((sha1) => stored.get(sha1))
  if (parts.some((p) => p === undefined)) return null
  const size = parts.reduce((n, p) => n + (p?.byteLength ?? 0), 0)
  const bytes = new Uint8Array(size)
  let at = 0
  for (const p of parts as Uint8Array[]) {
    bytes.set(p, at)
    at += p.byteLength
  }
  return bytes
}

/** Stores a parsed bundle in every project, after checking every project's total. */
async function store(
  ctx: UploadContext,
  projects: readonly ProjectRecord[],
  req: AssembleRequest,
  bundle: ParsedBundle,
  auth: Authenticated,
): Promise<EngineResponse> {
  const release = req.version ?? bundle.release
  const dist = release ? (req.dist ?? bundle.dist) : null
  if (bundle.files.length === 0) return failed('The bundle holds no files.')
  if (!release && bundle.files.every((f) => f.debugId === null)) {
    return failed(
      'The bundle has no debug IDs and no release: run `sentry-cli sourcemaps inject` first, or pass --release.',
    )
  }
  const size = bundle.files.reduce((n, f) => n + f.size, 0)
  const max = ctx.limits.maxProjectBytes
  for (const project of projects) {
    const known = await ctx.store.findArtifactBundle(project.id, req.checksum)
    const usage = known ? 0 : (await ctx.store.artifactUsage(project.id)).bytes
    if (usage + size > max) {
      return failed(
        `Project ${project.id} would hold more than ${max} bytes of artifacts (it holds ${usage}); delete old bundles first.`,
        413,
      )
    }
  }
  const at = ctx.now()
  for (const project of projects) {
    await ctx.store.saveArtifactBundle({
      projectId: project.id,
      checksum: req.checksum,
      bundleDebugId: normalDebugId(bundle.debugId) ?? idFromChecksum(req.checksum),
      release,
      dist,
      files: bundle.files,
      uploadedBy: auth.user.id,
      uploadedAt: at,
    })
  }
  return state('ok')
}

/** `POST …/artifactbundle/assemble/`. */
export async function assembleBundle(
  ctx: UploadContext,
  request: EngineRequest,
): Promise<EngineResponse> {
  const auth = await caller(ctx, request)
  if (isResponse(auth)) return auth
  const req = readAssembleRequest(jsonBody(request))
  if (typeof req === 'string')
    return { status: 400, headers: {}, body: { error: req, detail: req } }
  const projects = await managedProjects(ctx, auth, req.projects)
  if (isResponse(projects)) return projects
  const stored = await Promise.all(
    projects.map((p) => ctx.store.findArtifactBundle(p.id, req.checksum)),
  )
  if (stored.every((b) => b !== null)) return state('ok')
  const { chunkSize, maxBundleBytes } = ctx.limits
  if (req.chunks.length > Math.ceil(maxBundleBytes / chunkSize)) {
    return failed(`The bundle is larger than ${maxBundleBytes} bytes.`, 413)
  }
  const missing = await ctx.store.missingChunks(auth.user.id, req.chunks)
  if (missing.length > 0) return state('not_found', missing)
  const bytes = await join(ctx, auth.user.id, req.chunks)
  if (!bytes) return state('not_found', await ctx.store.missingChunks(auth.user.id, req.chunks))
  if (bytes.byteLength > maxBundleBytes) {
    return failed(`The bundle is larger than ${maxBundleBytes} bytes.`, 413)
  }
  const actual = sha1Hex(bytes)
  if (actual !== req.checksum) {
    return failed(`Checksum mismatch: the chunks join to ${actual}, not ${req.checksum}.`)
  }
  const bundle = parseArtifactBundle(bytes, ctx.limits)
  if ('detail' in bundle) return failed(bundle.detail, bundle.status)
  return store(ctx, projects, req, bundle, auth)
}
