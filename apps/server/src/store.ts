import type { BatchWriterOptions, IngestStore } from '@tis/ingest'
import { openPgliteStore, openPostgresStore } from '@tis/storage-postgres'
import type { DatabaseConfig } from './config'

/** An open store and the group-commit settings that suit it. */
export interface OpenedStore {
  readonly store: IngestStore
  /** PGlite has one connection: one batch at a time. PostgreSQL: several, over a pool. */
  readonly batch: BatchWriterOptions
}

/** Connections of the postgres.js pool: batches in flight plus room for reads and management. */
const POSTGRES_POOL_SIZE = 8
/** Batches written at once on PostgreSQL. */
const POSTGRES_BATCH_CONCURRENCY = 4

/** Opens and migrates the database the configuration names (PGlite creates its directory). */
export async function openStore(database: DatabaseConfig): Promise<OpenedStore> {
  if (database.kind === 'postgres') {
    const store = await openPostgresStore(database.url, { client: { max: POSTGRES_POOL_SIZE } })
    return { store, batch: { concurrency: POSTGRES_BATCH_CONCURRENCY } }
  }
  return { store: await openPgliteStore(database.dataDir), batch: { concurrency: 1 } }
}
