import { randomUUID } from 'node:crypto'
import type {
  ArtifactBundleRecord,
  ArtifactStore,
  NewArtifactBundle,
  StoredArtifact,
} from '@tis/ingest'

// A small in-memory ArtifactStore for the engine's unit tests: the real one is
// @tis/storage-postgres's (its contract runs on PGlite and PostgreSQL).

/** An in-memory {@link ArtifactStore}, with its maps open for assertions. */
export function createMemoryArtifactStore() {
  const chunks = new Map<string, { content: Uint8Array; at: Date }>()
  const bundles = new Map<string, ArtifactBundleRecord>()
  const files = new Map<string, StoredArtifact[]>()
  const blobs = new Map<string, Uint8Array>()
  const key = (owner: string, sha1: string) => `${owner}\u0000${sha1}`
  const all = () => [...bundles.values()]
  const artifacts = (projectId: string) =>
    all()
      .filter((b) => b.projectId === projectId)
      .flatMap((b) => files.get(b.id) ?? [])
  const store: ArtifactStore = {
    async missingChunks(owner, sha1s) {
      return [...new Set(sha1s)].filter((s) => !chunks.has(key(owner, s)))
    },
    async putChunks(owner, list, at) {
      for (const c of list)
        if (!chunks.has(key(owner, c.sha1)))
          chunks.set(key(owner, c.sha1), { content: c.content, at })
    },
    async readChunks(owner, sha1s) {
      const out = new Map<string, Uint8Array>()
      for (const s of sha1s) {
        const c = chunks.get(key(owner, s))
        if (c) out.set(s, c.content)
      }
      return out
    },
    async pruneChunks(before) {
      let n = 0
      for (const [k, c] of chunks) if (c.at < before && chunks.delete(k)) n += 1
      return n
    },
    async findArtifactBundle(projectId, checksum) {
      return all().find((b) => b.projectId === projectId && b.checksum === checksum) ?? null
    },
    async saveArtifactBundle(bundle: NewArtifactBundle) {
      const known = await store.findArtifactBundle(bundle.projectId, bundle.checksum)
      if (known) return known
      const id = randomUUID()
      const debugIds = [
        ...new Set(bundle.files.flatMap((f) => (f.debugId ? [f.debugId] : []))),
      ].sort()
      const record: ArtifactBundleRecord = {
        id,
        projectId: bundle.projectId,
        checksum: bundle.checksum,
        bundleDebugId: bundle.bundleDebugId,
        release: bundle.release,
        dist: bundle.dist,
        fileCount: bundle.files.length,
        size: bundle.files.reduce((n, f) => n + f.size, 0),
        debugIds,
        uploadedAt: bundle.uploadedAt,
        lastUsedAt: bundle.uploadedAt,
      }
      bundles.set(id, record)
      files.set(
        id,
        bundle.files.map(({ content, ...f }) => {
          blobs.set(f.sha1, content)
          return { ...f, bundleId: id, release: bundle.release, dist: bundle.dist }
        }),
      )
      return record
    },
    async listArtifactBundles(projectId, options) {
      return all()
        .filter(
          (b) => b.projectId === projectId && (!options?.release || b.release === options.release),
        )
        .sort((a, b) => b.uploadedAt.getTime() - a.uploadedAt.getTime())
        .slice(0, options?.limit ?? 100)
    },
    async listArtifactFiles(projectId, bundleId) {
      return bundles.get(bundleId)?.projectId === projectId ? (files.get(bundleId) ?? []) : []
    },
    async deleteArtifactBundle(projectId, bundleId) {
      if (bundles.get(bundleId)?.projectId !== projectId) return false
      bundles.delete(bundleId)
      files.delete(bundleId)
      return true
    },
    async artifactUsage(projectId) {
      const mine = all().filter((b) => b.projectId === projectId)
      return { bundles: mine.length, bytes: mine.reduce((n, b) => n + b.size, 0) }
    },
    async findArtifactsByDebugId(projectId, debugIds) {
      return artifacts(projectId).filter((f) => f.debugId !== null && debugIds.includes(f.debugId))
    },
    async findArtifactsByUrl(projectId, release, dist, urls) {
      return artifacts(projectId).filter(
        (f) => f.release === release && f.dist === dist && urls.includes(f.url),
      )
    },
    async readArtifacts(sha1s) {
      const out = new Map<string, Uint8Array>()
      for (const s of sha1s) {
        const b = blobs.get(s)
        if (b) out.set(s, b)
      }
      return out
    },
    async touchArtifactBundles() {},
  }
  return { store, chunks, bundles, files }
}
