export { spanKey } from './log/append'
export { MIGRATIONS } from './migrate'
export type { Migration } from './migrations/migration'
export {
  createPgliteStore,
  EMBEDDED_SHARED_BUFFERS,
  openPgliteStore,
  PGLITE_SIZE,
  type PgliteStoreOptions,
} from './pglite'
export { PGLITE_SYNC_MODES, type PgliteSync, pgliteCommitSyncOptions } from './pglite-sync'
export { createPostgresStore, type OpenPostgresStoreOptions, openPostgresStore } from './postgres'
export type { PostgresIngestStore, StoreOptions } from './store'
export { applyTextSearchIndex, TEXT_SEARCH_INDEX } from './text-search-index'
