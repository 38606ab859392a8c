import type { ArtifactStore } from '@tis/ingest'
import { createArtifactBundleQueries } from './artifacts/bundles'
import { createArtifactChunkQueries } from './artifacts/chunks'
import { createArtifactLookup } from './artifacts/lookup'
import type { SqlExecutor } from './executor'

// Source-map uploads (migration 21): chunks of uploads in progress, bundles and their files,
// each distinct content stored once by SHA-1. The pieces live in `artifacts/`.

export { createArtifactLookup } from './artifacts/lookup'

/** The {@link ArtifactStore} over one executor: look-ups, chunks, bundles. */
export function createArtifactQueries(db: SqlExecutor): ArtifactStore {
  return {
    ...createArtifactLookup(db),
    ...createArtifactChunkQueries(db),
    ...createArtifactBundleQueries(db),
  }
}
