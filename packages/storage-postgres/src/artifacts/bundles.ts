import { randomUUID } from 'node:crypto'
import {
  type ArtifactBundleRecord,
  type ArtifactChunkStore,
  type ArtifactLookup,
  type ArtifactStore,
  type NewArtifactBundle,
  StoreError,
} from '@tis/ingest'
import { type SqlExecutor, sqlState } from '../executor'
import { toJsonParam } from '../json-param'
import { isUuid } from '../uuid'
import { deleteOrphanBlobs, storeBlobs } from './blobs'
import {
  BUNDLE_COLUMNS,
  type BundleRow,
  bundleRecordOf,
  debugIdKey,
  FILE_COLUMNS,
  type FileRow,
  storedArtifactOf,
} from './rows'

/** What {@link ArtifactStore} adds to the look-up and the chunks. */
export type ArtifactBundleQueries = Omit<
  ArtifactStore,
  keyof ArtifactLookup | keyof ArtifactChunkStore
>

/** Bundles a list answers when the caller gives no `limit`. */
export const DEFAULT_BUNDLE_LIST_LIMIT = 100

const INSERT_BUNDLE = /* sql */ `
insert into artifact_bundles (id, project_id, checksum, bundle_debug_id, release, dist,
                              file_count, size, uploaded_by, uploaded_at, last_used_at)
values ($1::uuid, $2::uuid, $3::text, $4::text, $5::text, $6::text, $7::int, $8::int8, $9::text,
        $10::timestamptz, $10::timestamptz)
on conflict (project_id, checksum) do nothing
returning id`

const INSERT_FILES = /* sql */ `
insert into artifact_files (bundle_id, position, project_id, url, type, debug_id, headers, sha1,
                            size, release, dist)
select $2::uuid, r.position, $3::uuid, r.url, r.type, r.debug_id, r.headers, r.sha1, r.size,
       $4::text, $5::text
  from jsonb_to_recordset($1::text::jsonb) as r (position int, url text, type text,
       debug_id text, headers jsonb, sha1 text, size int8)`

const BUNDLE_BY_CHECKSUM = /* sql */ `
select ${BUNDLE_COLUMNS} from artifact_bundles b
 where b.project_id = $1::uuid and b.checksum = $2::text`

async function findByChecksum(db: SqlExecutor, projectId: string, checksum: string) {
  const [row] = await db.query<BundleRow>(BUNDLE_BY_CHECKSUM, [projectId, checksum])
  return row ? bundleRecordOf(row) : null
}

async function insertBundle(tx: SqlExecutor, bundle: NewArtifactBundle): Promise<string | null> {
  const size = bundle.files.reduce((n, f) => n + f.content.byteLength, 0)
  const [row] = await tx.query<{ id: string }>(INSERT_BUNDLE, [
    randomUUID(),
    bundle.projectId,
    bundle.checksum,
    bundle.bundleDebugId,
    bundle.release,
    bundle.dist,
    bundle.files.length,
    size,
    bundle.uploadedBy,
    bundle.uploadedAt,
  ])
  return row?.id ?? null
}

async function save(tx: SqlExecutor, bundle: NewArtifactBundle): Promise<ArtifactBundleRecord> {
  const id = await insertBundle(tx, bundle)
  // The same upload again (or a concurrent one that committed first): the stored bundle.
  if (id === null) return (await findByChecksum(tx, bundle.projectId, bundle.checksum))!
  await storeBlobs(tx, new Map(bundle.files.map((f) => [f.sha1, f.content])))
  const rows = bundle.files.map((f, position) => ({
    position,
    url: f.url,
    type: f.type,
    debug_id: f.debugId === null ? null : debugIdKey(f.debugId),
    headers: f.headers,
    sha1: f.sha1,
    size: f.content.byteLength,
  }))
  if (rows.length > 0) {
    await tx.query(INSERT_FILES, [
      toJsonParam(rows),
      id,
      bundle.projectId,
      bundle.release,
      bundle.dist,
    ])
  }
  return (await findByChecksum(tx, bundle.projectId, bundle.checksum))!
}

/** The bundle half of the {@link ArtifactStore}: save, list, delete, usage. */
export function createArtifactBundleQueries(db: SqlExecutor): ArtifactBundleQueries {
  return {
    async findArtifactBundle(projectId, checksum) {
      return isUuid(projectId) ? findByChecksum(db, projectId, checksum) : null
    },

    async saveArtifactBundle(bundle) {
      if (!isUuid(bundle.projectId)) throw unknownProject(bundle.projectId)
      try {
        return await db.transaction((tx) => save(tx, bundle))
      } catch (error) {
        // 23503: the project's foreign key (it does not exist, or was deleted meanwhile).
        if (sqlState(error) === '23503') throw unknownProject(bundle.projectId, error)
        throw error
      }
    },

    async listArtifactBundles(projectId, options = {}) {
      if (!isUuid(projectId)) return []
      const limit = Math.max(0, Math.floor(options.limit ?? DEFAULT_BUNDLE_LIST_LIMIT))
      const rows = await db.query<BundleRow>(
        `select ${BUNDLE_COLUMNS} from artifact_bundles b
          where b.project_id = $1::uuid and ($2::text is null or b.release = $2::text)
          order by b.uploaded_at desc, b.id desc limit $3::int`,
        [projectId, options.release ?? null, limit],
      )
      return rows.map(bundleRecordOf)
    },

    async listArtifactFiles(projectId, bundleId) {
      if (!isUuid(projectId) || !isUuid(bundleId)) return []
      const rows = await db.query<FileRow>(
        `select ${FILE_COLUMNS} from artifact_files f
          where f.project_id = $1::uuid and f.bundle_id = $2::uuid order by f.position`,
        [projectId, bundleId],
      )
      return rows.map(storedArtifactOf)
    },

    async deleteArtifactBundle(projectId, bundleId) {
      if (!isUuid(projectId) || !isUuid(bundleId)) return false
      return db.transaction(async (tx) => {
        const gone = await deleteBundles(tx, projectId, [bundleId])
        return gone > 0
      })
    },

    async artifactUsage(projectId) {
      if (!isUuid(projectId)) return { bundles: 0, bytes: 0 }
      return artifactUsageOf(db, projectId)
    },
  }
}

/**
 * Deletes a project's bundles by id (their files go by cascade), then the contents no file
 * uses any more, in the caller's transaction. Resolves how many bundles went.
 */
export async function deleteBundles(
  tx: SqlExecutor,
  projectId: string,
  bundleIds: readonly string[],
): Promise<number> {
  if (bundleIds.length === 0) return 0
  const sha1s = await tx.query<{ sha1: string }>(
    `select distinct f.sha1 from artifact_files f
      where f.project_id = $1::uuid and f.bundle_id = any($2::uuid[])`,
    [projectId, bundleIds],
  )
  const gone = await tx.query(
    `delete from artifact_bundles where project_id = $1::uuid and id = any($2::uuid[]) returning 1`,
    [projectId, bundleIds],
  )
  await deleteOrphanBlobs(
    tx,
    sha1s.map((r) => r.sha1),
  )
  return gone.length
}

/**
 * A project's bundles and the bytes of their contents: each content once per bundle that holds
 * it (what the project would free by deleting them all, were no other project to share them).
 */
export async function artifactUsageOf(db: SqlExecutor, projectId: string) {
  // Through the project's bundles and each bundle's files (both by index), not a scan of files.
  const [row] = await db.query<{ bundles: number; bytes: number }>(
    `with b as (select id from artifact_bundles where project_id = $1::uuid)
     select (select count(*) from b)::int as bundles,
            coalesce((select sum(d.size) from b
                        cross join lateral (select distinct f.sha1, f.size from artifact_files f
                                             where f.bundle_id = b.id) d), 0)::int8 as bytes`,
    [projectId],
  )
  return { bundles: row?.bundles ?? 0, bytes: row?.bytes ?? 0 }
}

function unknownProject(projectId: string, cause?: unknown) {
  return new StoreError('not_found', `no project ${projectId}`, cause ? { cause } : undefined)
}
