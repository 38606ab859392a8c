import { type EngineRequest, type EngineResponse, readHeader } from '../http'
import type { ArtifactFileType } from '../ports'
import { normalDebugId } from './bundle'
import { sha1Hex } from './upload-chunks'
import { caller, isResponse, managedProjects, type UploadContext } from './upload-context'
import { ok, sentryError } from './upload-respond'

// The legacy per-file release upload of sentry-cli 2.x (design note §2.11): one multipart POST
// per file, parts `file`, `name` (`~/app.min.js`), `dist` and repeated `header` (`Key:Value`).
// tis advertises artifact bundles, so sentry-cli never takes this path itself; scripts may. Each
// file is stored as a one-file bundle of the release, found by release, dist and URL.

/** The type of a release file by its name: maps, then JavaScript, then any source. */
function typeOf(name: string): ArtifactFileType {
  if (/\.map$/i.test(name)) return 'source_map'
  return /\.[cm]?js$/i.test(name) ? 'minified_source' : 'source'
}

/** `POST /api/0/projects/{org}/{project}/releases/{version}/files/`: 201, 200 when stored before. */
export async function uploadReleaseFile(
  ctx: UploadContext,
  request: EngineRequest,
): Promise<EngineResponse> {
  const auth = await caller(ctx, request)
  if (isResponse(auth)) return auth
  const projects = await managedProjects(ctx, auth, [request.params?.['project'] ?? ''])
  if (isResponse(projects)) return projects
  const release = request.params?.['version'] ?? ''
  const type = readHeader(request.headers, 'content-type') ?? ''
  let form: FormData
  try {
    form = await new Response(request.bytes as Uint8Array<ArrayBuffer>, {
      headers: { 'content-type': type },
    }).formData()
  } catch {
    return sentryError(400, 'Send the file as multipart/form-data (parts `file`, `name`).')
  }
  const file = form.get('file')
  if (!file || typeof file === 'string') return sentryError(400, 'No `file` part in the form.')
  const content = new Uint8Array(await file.arrayBuffer())
  if (content.byteLength > ctx.limits.maxBundleBytes) {
    return sentryError(413, `The file is larger than ${ctx.limits.maxBundleBytes} bytes.`)
  }
  const name = String(form.get('name') ?? '') || `~/${file.name}`
  const dist = String(form.get('dist') ?? '') || null
  const headers: Record<string, string> = {}
  for (const value of form.getAll('header')) {
    const [key, ...rest] = String(value).split(':')
    if (key && rest.length > 0) headers[key.trim().toLowerCase()] = rest.join(':').trim()
  }
  const sha1 = sha1Hex(content)
  // The same file (release, dist, name, content) uploaded twice is stored once.
  const checksum = sha1Hex(
    new TextEncoder().encode(`release-file\0${release}\0${dist ?? ''}\0${name}\0${sha1}`),
  )
  const project = projects[0]
  if (!project) return sentryError(400, 'No project given.')
  const size = content.byteLength
  const answer = (id: string, at: Date, status: number) =>
    ok({ id, name, dist, headers, sha1, size, dateCreated: at.toISOString() }, status)
  // Sentry answers a repeat 409, which sentry-cli counts as uploaded; 200 says the same to any client.
  const known = await ctx.store.findArtifactBundle(project.id, checksum)
  if (known) return answer(known.id, known.uploadedAt, 200)
  const usage = (await ctx.store.artifactUsage(project.id)).bytes
  if (usage + content.byteLength > ctx.limits.maxProjectBytes) {
    return sentryError(
      413,
      `Project ${project.id} would hold more than ${ctx.limits.maxProjectBytes} bytes of artifacts; delete old bundles first.`,
    )
  }
  const at = ctx.now()
  const debugId = normalDebugId(headers['debug-id'])
  const saved = await ctx.store.saveArtifactBundle({
    projectId: project.id,
    checksum,
    bundleDebugId: `${checksum.slice(0, 8)}-${checksum.slice(8, 12)}-${checksum.slice(12, 16)}-${checksum.slice(16, 20)}-${checksum.slice(20, 32)}`,
    release,
    dist,
    files: [
      { url: name, type: typeOf(name), debugId, headers, sha1, size: content.byteLength, content },
    ],
    uploadedBy: auth.user.id,
    uploadedAt: at,
  })
  return ok(
    {
      id: saved.id,
      name,
      dist,
      headers,
      sha1,
      size: content.byteLength,
      dateCreated: at.toISOString(),
    },
    201,
  )
}
