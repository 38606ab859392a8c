import type { PgliteSync } from '@tis/storage-postgres'

/**
 * Where the server keeps its data. `textSearchIndex` is `SERVICE_TEXT_SEARCH_INDEX`, applied
 * where the store migrates (`undefined`: the store's default, kept).
 */
export type DatabaseConfig =
  | { readonly kind: 'postgres'; readonly url: string; readonly textSearchIndex?: boolean }
  /**
   * Embedded PGlite; `dataDir` `undefined` keeps the database in memory. `sync` is
   * `SERVICE_EMBEDDED_SYNC` (ignored in memory), `sharedBuffers` `SERVICE_EMBEDDED_SHARED_BUFFERS`.
   */
  | {
      readonly kind: 'pglite'
      readonly dataDir: string | undefined
      readonly sync: PgliteSync
      readonly sharedBuffers: string
      readonly textSearchIndex?: boolean
    }
