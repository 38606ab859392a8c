import { createHash, randomUUID } from 'node:crypto'
import type {
  ArtifactFile,
  ArtifactFileType,
  IngestLog,
  IngestStore,
  NewArtifactBundle,
  ProjectionEnricher,
  ProjectionStore,
  RetentionStore,
} from '@tis/ingest'

// Builders of source-map uploads as the upload API hands them to the store: unique contents per
// call unless a test passes the same text, so suites sharing a store never see each other's blobs.

/** The stores the artifact contract runs against. */
export type ArtifactContractStore = IngestStore & IngestLog & ProjectionStore & RetentionStore

/** A store under the artifact contract, with raw SQL access to its tables. */
export interface ArtifactHarness {
  readonly store: ArtifactContractStore
  /** Runs one query with text parameters and resolves its rows. */
  query<T>(sql: string, params?: readonly string[]): Promise<T[]>
  close(): Promise<void>
}

/**
 * Makes an empty, migrated store whose projection runs `enrich` on every round (the store
 * option the server passes); called once per suite.
 */
export type ArtifactStoreFactory = (options: {
  readonly enrich: ProjectionEnricher
}) => Promise<ArtifactHarness>

/** SHA-1 hex of bytes. */
export const sha1Of = (bytes: Uint8Array) => createHash('sha1').update(bytes).digest('hex')

/** UTF-8 bytes of a text. */
export const utf8 = (text: string) => new TextEncoder().encode(text)

/** A file of a bundle with its bytes. */
export type FileWithContent = ArtifactFile & { readonly content: Uint8Array }

/** A file with `text` as content (unique text unless given). */
export function artifactFile(
  url: string,
  fields: { text?: string; type?: ArtifactFileType; debugId?: string | null } = {},
): FileWithContent {
  const content = utf8(fields.text ?? `// ${url} ${randomUUID()}`)
  const debugId = fields.debugId ?? null
  return {
    url,
    type: fields.type ?? 'minified_source',
    debugId,
    headers: debugId === null ? {} : { 'debug-id': debugId },
    sha1: sha1Of(content),
    size: content.byteLength,
    content,
  }
}

/** Fields of {@link artifactBundle}. */
export interface BundleFields {
  release?: string | null
  dist?: string | null
  /** The upload's checksum; a fresh one unless given. */
  checksum?: string
  uploadedAt?: Date
  uploadedBy?: string | null
}

/** A bundle of `files` for `projectId`. */
export function artifactBundle(
  projectId: string,
  files: readonly FileWithContent[],
  fields: BundleFields = {},
): NewArtifactBundle {
  const checksum = fields.checksum ?? sha1Of(utf8(randomUUID()))
  return {
    projectId,
    checksum,
    bundleDebugId: randomUUID(),
    release: fields.release ?? null,
    dist: fields.dist ?? null,
    files,
    uploadedBy: fields.uploadedBy ?? null,
    uploadedAt: fields.uploadedAt ?? new Date(Date.UTC(2026, 0, 1)),
  }
}
