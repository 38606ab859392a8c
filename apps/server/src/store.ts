import type { AnalyticsOutbox, BatchWriterOptions, ProjectionEnricher } from '@tis/ingest'
import { openPgliteStore, openPostgresStore, type PostgresIngestStore } from '@tis/storage-postgres'
import type { DatabaseConfig } from './config'

/** An open store and the group-commit settings that suit it. */
export interface OpenedStore {
  readonly store: PostgresIngestStore
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
 * Seconds to establish a connection (TCP, TLS, authentication) before the query fails as
 * unavailable (503). postgres.js waits 30 s by default: longer than clients wait for an answer.
 */
const POSTGRES_CONNECT_TIMEOUT_SECONDS = 2
/**
 * Pause before a connection is attempted again after a failed one, in seconds: none.
 * postgres.js backs off up to 20 s by default, and every query queued on that connection waits
 * it out: while the database was down requests hung instead of answering 503, and after it came
 * back they kept hanging for seconds. Even a 0.1 s pause adds up, as the engine retries a failed
 * batch record by record (3 s answers with 100 concurrent clients). Attempts are only made for
 * queries, so they are bounded by the request rate, and a refused connection costs little.
 */
const noReconnectPause = () => 0

/** Options of {@link openStore}. */
export interface OpenStoreOptions {
  /** Export every event and span accepted from now on once projected. @default false */
  readonly analytics?: boolean
  /** Run on every projection round's ops (source-map resolution). */
  readonly enrich?: ProjectionEnricher | undefined
  /** Connections of the PostgreSQL pool. @default 8 */
  readonly connections?: number
  /** The PostgreSQL connections' `application_name` (what `pg_stat_activity` shows). */
  readonly applicationName?: string
  /** Migrate the database first (`false`: another process of the server has). @default true */
  readonly migrate?: boolean
}

/**
 * Opens and migrates the database the configuration names (PGlite creates its directory). With
 * `analytics`, every event and span accepted from now on is exported once projected. With
 * `enrich`, the projection runs it on every round's ops (source-map resolution).
 */
export async function openStore(
  database: DatabaseConfig,
  options: OpenStoreOptions = {},
): Promise<OpenedStore> {
  const analytics = options.analytics ?? false
  const { enrich } = options
  if (database.kind === 'postgres') {
    const store = await openPostgresStore(database.url, {
      client: {
        max: options.connections ?? POSTGRES_POOL_SIZE,
        connect_timeout: POSTGRES_CONNECT_TIMEOUT_SECONDS,
        backoff: noReconnectPause,
        ...(options.applicationName
          ? { connection: { application_name: options.applicationName } }
          : {}),
      },
      analytics,
      enrich,
      migrate: options.migrate ?? true,
      textSearchIndex: database.textSearchIndex,
    })
    return { store, batch: { concurrency: POSTGRES_BATCH_CONCURRENCY }, outbox: store.outbox }
  }
  const store = await openPgliteStore(database.dataDir, {
    analytics,
    enrich,
    sync: database.sync,
    sharedBuffers: database.sharedBuffers,
    textSearchIndex: database.textSearchIndex,
  })
  return { store, batch: { concurrency: 1 }, outbox: store.outbox }
}

/** A store a host hands the server: made already, or made with the server's enricher. */
export type InjectedStore =
  | PostgresIngestStore
  | ((options: { enrich: ProjectionEnricher }) => PostgresIngestStore)

/**
 * The store a server runs on: the injected one (a function is called with `enrich`, so its
 * projection resolves source maps as an opened store's does), else the configured database,
 * opened with `enrich`.
 */
export async function serverStore(
  config: { readonly database: DatabaseConfig; readonly analytics: { readonly enabled: boolean } },
  injection: { readonly store?: InjectedStore; readonly outbox?: AnalyticsOutbox },
  enrich: ProjectionEnricher,
): Promise<OpenedStore> {
  const store =
    typeof injection.store === 'function' ? injection.store({ enrich }) : injection.store
  if (!store) return openStore(config.database, { analytics: config.analytics.enabled, enrich })
  return {
    store,
    batch: { concurrency: 1 },
    ...(injection.outbox ? { outbox: injection.outbox } : {}),
  }
}
