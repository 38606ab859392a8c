import type { ArtifactBundleJson, ArtifactFileJson } from '@tis/schema'
import type { EngineResponse } from '../http'
import { json } from '../http'
import type { ManagementOperation } from '../management/access'
import type { ArtifactBundleRecord, StoredArtifact } from '../ports'
import type { UploadContext } from './upload-context'

// The project's bundles in tis's own API (`/api/v1/projects/:id/artifact_bundles`): what the
// dashboard's settings page lists and deletes.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const NOT_FOUND: EngineResponse = json(404, { error: 'Not found' })
/** The most bundles one list answers, and its default. */
export const BUNDLE_LIST_LIMIT = { default: 100, max: 1_000 } as const

/** A stored bundle as the API answers it. */
export function bundleJson(b: ArtifactBundleRecord): ArtifactBundleJson {
  return {
    id: b.id,
    bundle_debug_id: b.bundleDebugId,
    release: b.release,
    dist: b.dist,
    file_count: b.fileCount,
    size: b.size,
    debug_ids: [...b.debugIds],
    uploaded_at: b.uploadedAt.toISOString(),
    last_used_at: b.lastUsedAt.toISOString(),
  }
}

/** A bundle's file as the API answers it. */
export function fileJson(f: StoredArtifact): ArtifactFileJson {
  return { url: f.url, type: f.type, debug_id: f.debugId, size: f.size, sha1: f.sha1 }
}

/** The three operations, each behind the project access rule. */
export function bundleOperations(ctx: UploadContext) {
  const { access, store } = ctx
  const listArtifactBundles: ManagementOperation = access.project(false, async (request, p) => {
    const raw = request.query?.['limit']
    const limit = raw === undefined ? BUNDLE_LIST_LIMIT.default : Number(raw)
    if (!Number.isInteger(limit) || limit < 1 || limit > BUNDLE_LIST_LIMIT.max) {
      return json(422, { errors: [`limit must be an integer from 1 to ${BUNDLE_LIST_LIMIT.max}`] })
    }
    const release = request.query?.['release']
    const bundles = await store.listArtifactBundles(p.id, {
      limit,
      ...(release ? { release } : {}),
    })
    return json(200, { artifact_bundles: bundles.map(bundleJson) })
  })
  const getArtifactBundle: ManagementOperation = access.project(false, async (request, p) => {
    const id = request.params?.['bundle_id'] ?? ''
    if (!UUID.test(id)) return NOT_FOUND
    const bundle = (
      await store.listArtifactBundles(p.id, { limit: BUNDLE_LIST_LIMIT.max * 100 })
    ).find((b) => b.id === id.toLowerCase())
    if (!bundle) return NOT_FOUND
    const files = await store.listArtifactFiles(p.id, bundle.id)
    return json(200, { artifact_bundle: bundleJson(bundle), files: files.map(fileJson) })
  })
  const deleteArtifactBundle: ManagementOperation = access.project(true, async (request, p) => {
    const id = request.params?.['bundle_id'] ?? ''
    if (!UUID.test(id)) return NOT_FOUND
    return (await store.deleteArtifactBundle(p.id, id.toLowerCase()))
      ? { status: 204, headers: {}, body: null }
      : NOT_FOUND
  })
  return { listArtifactBundles, getArtifactBundle, deleteArtifactBundle }
}
