// Source maps (JavaScript stack traces): the files Sentry's tooling uploads as artifact bundles
// (or one by one for a release), the chunks an upload arrives in, and the look-ups the
// projection and the read API resolve frames with. Bytes are stored once per content hash.

/** What a file of an artifact bundle is (its manifest's `type`). */
export type ArtifactFileType = 'minified_source' | 'source_map' | 'source' | 'indexed_ram_bundle'

/** One stored file of a bundle or release, without its bytes. */
export interface ArtifactFile {
  /** As uploaded: `~/static/js/app.min.js` (any host), or an absolute URL. */
  readonly url: string
  readonly type: ArtifactFileType
  /** The file's debug ID (lower-case UUID), from its `debug-id` header; `null` without one. */
  readonly debugId: string | null
  /** The manifest's headers, names lower-cased (`sourcemap`, `debug-id`, …). */
  readonly headers: Readonly<Record<string, string>>
  /** SHA-1 hex of the content: the key of its bytes ({@link ArtifactLookup.readArtifacts}). */
  readonly sha1: string
  /** Bytes of the content. */
  readonly size: number
}

/** A stored file as a look-up finds it: where it came from, and its bundle's release. */
export interface StoredArtifact extends ArtifactFile {
  /** The {@link ArtifactBundleRecord.id} of the upload that holds it. */
  readonly bundleId: string
  readonly release: string | null
  readonly dist: string | null
}

/** A bundle (or legacy release file) to store, its files with their bytes. */
export interface NewArtifactBundle {
  readonly projectId: string
  /** SHA-1 hex of the whole upload: the same upload twice is stored once per project. */
  readonly checksum: string
  /** The manifest's `debug_id`, else one derived from the checksum. */
  readonly bundleDebugId: string
  readonly release: string | null
  readonly dist: string | null
  readonly files: readonly (ArtifactFile & { readonly content: Uint8Array })[]
  /** The user whose token uploaded it; `null` from a tool without one. */
  readonly uploadedBy: string | null
  readonly uploadedAt: Date
}

/** A stored bundle as the API and the dashboard list it. */
export interface ArtifactBundleRecord {
  /** Engine-generated UUID. */
  readonly id: string
  readonly projectId: string
  readonly checksum: string
  readonly bundleDebugId: string
  readonly release: string | null
  readonly dist: string | null
  readonly fileCount: number
  /** Bytes of its files' contents, added up. */
  readonly size: number
  /** The files' debug IDs, distinct, sorted. */
  readonly debugIds: readonly string[]
  readonly uploadedAt: Date
  /** Last time a frame was resolved with one of its files (`uploadedAt` until then). */
  readonly lastUsedAt: Date
}

/** Find files to resolve frames with: the projection's and the read API's look-up. */
export interface ArtifactLookup {
  /** A project's files with any of these debug IDs (maps and sources alike). */
  findArtifactsByDebugId(
    projectId: string,
    debugIds: readonly string[],
  ): Promise<readonly StoredArtifact[]>
  /**
   * A project's files of `release` and `dist` (`null`: files uploaded without a dist) whose url
   * is one of `urls`, exactly.
   */
  findArtifactsByUrl(
    projectId: string,
    release: string,
    dist: string | null,
    urls: readonly string[],
  ): Promise<readonly StoredArtifact[]>
  /** The bytes of stored contents by SHA-1 (absent ones are left out). */
  readArtifacts(sha1s: readonly string[]): Promise<ReadonlyMap<string, Uint8Array>>
  /** Marks bundles as used at `at` (what retention keeps); a store may skip a bundle marked within the hour. */
  touchArtifactBundles(bundleIds: readonly string[], at: Date): Promise<void>
}

/** Chunks of an upload in progress, scoped to the user that sent them. */
export interface ArtifactChunkStore {
  /** Which of `sha1s` this owner has not uploaded (in the order given, distinct). */
  missingChunks(ownerId: string, sha1s: readonly string[]): Promise<readonly string[]>
  /** Stores chunks (their SHA-1 already checked); a chunk stored before is kept as is. */
  putChunks(
    ownerId: string,
    chunks: readonly { readonly sha1: string; readonly content: Uint8Array }[],
    at: Date,
  ): Promise<void>
  /** The owner's chunks by SHA-1 (absent ones are left out). */
  readChunks(ownerId: string, sha1s: readonly string[]): Promise<ReadonlyMap<string, Uint8Array>>
  /** Deletes chunks stored before `before`; resolves how many went. */
  pruneChunks(before: Date): Promise<number>
}

/** The stored uploads of a project. */
export interface ArtifactStore extends ArtifactLookup, ArtifactChunkStore {
  /** The project's bundle with this checksum, if stored. */
  findArtifactBundle(projectId: string, checksum: string): Promise<ArtifactBundleRecord | null>
  /**
   * Stores a bundle and its files in one transaction; contents already stored (any project)
   * are not stored again. The same (project, checksum) twice answers the stored bundle.
   */
  saveArtifactBundle(bundle: NewArtifactBundle): Promise<ArtifactBundleRecord>
  /** A project's bundles, newest upload first, at most `limit`. */
  listArtifactBundles(
    projectId: string,
    options?: { readonly limit?: number; readonly release?: string },
  ): Promise<readonly ArtifactBundleRecord[]>
  /** The files of one bundle. */
  listArtifactFiles(projectId: string, bundleId: string): Promise<readonly StoredArtifact[]>
  /** Deletes one bundle (and contents no other file uses); `false` when unknown. */
  deleteArtifactBundle(projectId: string, bundleId: string): Promise<boolean>
  /** Bytes of a project's stored artifacts (contents counted once per bundle that holds them). */
  artifactUsage(projectId: string): Promise<{ readonly bundles: number; readonly bytes: number }>
}
