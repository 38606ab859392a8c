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

// Contents cross the driver as base64 text (`decode($n, 'base64')`, `encode(content, 'base64')`),
// not as bytea values: the same statements on both drivers, arrays of them in one parameter,
// and PGlite's own bytea conversion is ten times slower (10 MB: 2.5 s in, 0.9 s out, against
// 0.2 s and 0.1 s as base64 text).

/** Bytes as the base64 text a statement decodes. */
export const base64Of = (bytes: Uint8Array): string =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64')

/**
 * Bytes from the base64 text of `encode(…, 'base64')` (its line breaks are skipped), as a
 * plain `Uint8Array` rather than a `Buffer`, the same from both drivers.
 */
export function bytesOf(text: unknown): Uint8Array {
  if (typeof text !== 'string') throw new TypeError('expected base64 text')
  const buffer = Buffer.from(text, 'base64')
  // A small Buffer is a slice of Node's shared pool: copied, so `.buffer` holds only these bytes.
  return buffer.byteLength === buffer.buffer.byteLength
    ? new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength)
    : new Uint8Array(buffer)
}

/** The UUIDs among `ids`: any other id is unknown, never a PostgreSQL syntax error. */
export const uuidsOf = (ids: readonly string[]) => ids.filter(isUuid)

/** Debug IDs as stored and looked up: lower-case, as the port defines them. */
export const debugIdKey = (id: string) => id.toLowerCase()
