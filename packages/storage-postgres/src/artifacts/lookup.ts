import type { ArtifactLookup } from '@tis/ingest'
import type { SqlExecutor } from '../executor'
import { isUuid } from '../uuid'
import { bytesOf, debugIdKey, FILE_COLUMNS, type FileRow, storedArtifactOf, uuidsOf } from './rows'

// Newest upload first: when two bundles hold a file for the same debug ID or URL, a resolver
// taking the first one uses the latest upload.
const BY_DEBUG_ID = /* sql */ `
select ${FILE_COLUMNS}
  from artifact_files f join artifact_bundles b on b.id = f.bundle_id
 where f.project_id = $1::uuid and f.debug_id = any($2::text[])
 order by b.uploaded_at desc, b.id, f.position`

// `is not distinct from`: a null dist finds the files uploaded without one (the index serves
// the (project, release, url) prefix; the dist is checked on the few rows it finds).
const BY_URL = /* sql */ `
select ${FILE_COLUMNS}
  from artifact_files f join artifact_bundles b on b.id = f.bundle_id
 where f.project_id = $1::uuid and f.release = $2::text and f.url = any($4::text[])
   and f.dist is not distinct from $3::text
 order by b.uploaded_at desc, b.id, f.position`

/**
 * The {@link ArtifactLookup} over `db`: the store's own executor, or a transaction's (the
 * projection resolves frames inside its round, on the round's connection; PGlite has only one).
 */
export function createArtifactLookup(db: SqlExecutor): ArtifactLookup {
  return {
    async findArtifactsByDebugId(projectId, debugIds) {
      if (!isUuid(projectId) || debugIds.length === 0) return []
      const rows = await db.query<FileRow>(BY_DEBUG_ID, [projectId, debugIds.map(debugIdKey)])
      return rows.map(storedArtifactOf)
    },

    async findArtifactsByUrl(projectId, release, dist, urls) {
      if (!isUuid(projectId) || urls.length === 0) return []
      const rows = await db.query<FileRow>(BY_URL, [projectId, release, dist, urls])
      return rows.map(storedArtifactOf)
    },

    async readArtifacts(sha1s) {
      const out = new Map<string, Uint8Array>()
      if (sha1s.length === 0) return out
      const rows = await db.query<{ sha1: string; content: string }>(
        `select sha1, encode(content, 'base64') as content from artifact_blobs
          where sha1 = any($1::text[])`,
        [[...new Set(sha1s)]],
      )
      for (const r of rows) out.set(r.sha1, bytesOf(r.content))
      return out
    },

    async touchArtifactBundles(bundleIds, at) {
      const ids = uuidsOf(bundleIds)
      if (ids.length === 0) return
      // Only forward, and at most once an hour a bundle (retention counts in days): a bundle in
      // use is not rewritten, nor its row locked, by every projection round and read.
      await db.query(
        `update artifact_bundles set last_used_at = $2::timestamptz
          where id = any($1::uuid[]) and last_used_at < $2::timestamptz - interval '1 hour'`,
        [[...new Set(ids)], at],
      )
    },
  }
}
