import type { ArtifactBundleRecord, ArtifactFileType, StoredArtifact } from '@tis/ingest'
import { isUuid } from '../uuid'

/** The columns of a stored file as {@link storedArtifactOf} reads them (alias `f`). */
export const FILE_COLUMNS = /* sql */ `f.bundle_id::text as bundle_id, f.url, f.type, f.debug_id,
  f.headers, f.sha1, f.size, f.release, f.dist`

/** A row of {@link FILE_COLUMNS}. */
export interface FileRow {
  bundle_id: string
  url: string
  type: ArtifactFileType
  debug_id: string | null
  headers: Record<string, string>
  sha1: string
  size: number
  release: string | null
  dist: string | null
}

/** The file a look-up answers from its row. */
export const storedArtifactOf = (r: FileRow): StoredArtifact => ({
  bundleId: r.bundle_id,
  url: r.url,
  type: r.type,
  debugId: r.debug_id,
  headers: r.headers,
  sha1: r.sha1,
  size: Number(r.size),
  release: r.release,
  dist: r.dist,
})

/** The columns of a bundle as {@link bundleRecordOf} reads them (alias `b`). */
export const BUNDLE_COLUMNS = /* sql */ `b.id::text as id, b.project_id::text as project_id,
  b.checksum, b.bundle_debug_id, b.release, b.dist, b.file_count, b.size, b.uploaded_at,
  b.last_used_at,
  array(select distinct f.debug_id from artifact_files f
         where f.bundle_id = b.id and f.debug_id is not null order by 1) as debug_ids`

/** A row of {@link BUNDLE_COLUMNS}. */
export interface BundleRow {
  id: string
  project_id: string
  checksum: string
  bundle_debug_id: string
  release: string | null
  dist: string | null
  file_count: number
  size: number
  uploaded_at: Date
  last_used_at: Date
  debug_ids: string[]
}

/** The bundle record from its row. */
export const bundleRecordOf = (r: BundleRow): ArtifactBundleRecord => ({
  id: r.id,
  projectId: r.project_id,
  checksum: r.checksum,
  bundleDebugId: r.bundle_debug_id,
  release: r.release,
  dist: r.dist,
  fileCount: r.file_count,
  size: Number(r.size),
  debugIds: r.debug_ids,
  uploadedAt: r.uploaded_at,
  lastUsedAt: r.last_used_at,
})

/**
 * A `bytea` value as a plain `Uint8Array`: postgres.js answers a Node `Buffer` (a view on a
 * shared pool), PGlite a `Uint8Array`; both drivers' callers then see the same type.
 */
export function bytesOf(value: unknown): Uint8Array {
  if (!(value instanceof Uint8Array)) throw new TypeError('expected a bytea value')
  return value.constructor === Uint8Array
    ? value
    : new Uint8Array(value.buffer, value.byteOffset, value.byteLength)
}

/** The UUIDs among `ids`: any other id is unknown, never a PostgreSQL syntax error. */
export const uuidsOf = (ids: readonly string[]) => ids.filter(isUuid)

/** Debug IDs as stored and looked up: lower-case, as the port defines them. */
export const debugIdKey = (id: string) => id.toLowerCase()
