import type { AnalyticsOutbox, BatchWriterOptions, IngestStore } from '@tis/ingest'
import { openPgliteStore, openPostgresStore } from '@tis/storage-postgres'
import type { DatabaseConfig } from './config'

/** An open store and the group-commit settings that suit it. */
export interface OpenedStore {
  readonly store: IngestStore
  /** PGlite has one connection: one batch at a time. PostgreSQL: several, over a pool. */
  readonly batch: BatchWriterOptions
  /** The analytics export queue of the store, when it has one. */
  readonly outbox?: AnalyticsOutbox
}

/** Connections of the postgres.js pool: batches in flight plus room for reads and management. */
const POSTGRES_POOL_SIZE = 8
/** Batches written at once on PostgreSQL. */
const POSTGRES_BATCH_CONCURRENCY = 4

/**
 * Opens and migrates the database the configuration names (PGlite creates its directory). With
 * `analyticsOutbox`, every event and span written from now on is also queued for export.
 */
export async function openStore(
  database: DatabaseConfig,
  options: { analyticsOutbox?: boolean } = {},
): Promise<OpenedStore> {
  const analyticsOutbox = options.analyticsOutbox ?? false
  if (database.kind === 'postgres') {
    const store = await openPostgresStore(database.url, {
      client: { max: POSTGRES_POOL_SIZE },
      analyticsOutbox,
    })
    return { store, batch: { concurrency: POSTGRES_BATCH_CONCURRENCY }, outbox: store.outbox }
  }
  const store = await openPgliteStore(database.dataDir, { analyticsOutbox })
  return { store, batch: { concurrency: 1 }, outbox: store.outbox }
}
