import type {
  AlertDeliveryStore,
  AnalyticsOutbox,
  IngestLog,
  IngestStore,
  ProjectionEnricher,
  ProjectionStore,
  RateLimitStore,
  RetentionStore,
} from '@tis/ingest'
import { createAlertConfigQueries } from './alert-config'
import { createAlertDeliveryQueries } from './alert-deliveries'
import { createMissedMonitorQueries } from './alert-missed'
import { createReleaseAlertQueries } from './alert-releases'
import { attachAnalytics, detachAnalytics } from './analytics/consumer'
import { createApiKeyQueries } from './api-keys'
import { createArtifactQueries } from './artifacts'
import { createChartQueries } from './chart-reads'
import { createCheckInQueries } from './check-in-reads'
import type { SqlExecutor } from './executor'
import { createLogQueries } from './log/log-queries'
import { runMigrations } from './migrate'
import { createOutboxQueries } from './outbox'
import { createProjectQueries } from './projects'
import { createRateLimitQueries } from './rate-limits'
import { createReadQueries } from './reads'
import { createReleaseQueries } from './release-reads'
import { createRetentionQueries } from './retention'
import { createSessionQueries } from './sessions'
import { createSourceQueries } from './source-files'
import { applyTextSearchIndex } from './text-search-index'
import { createUserQueries } from './users'

/** An {@link IngestStore} over PostgreSQL (postgres.js) or PGlite, with its schema migrations. */
export interface PostgresIngestStore
  extends Omit<IngestStore, keyof RateLimitStore>,
    RateLimitStore,
    IngestLog,
    ProjectionStore,
    AlertDeliveryStore,
    RetentionStore {
  /**
   * Applies pending schema migrations (recorded in `schema_migrations`). Idempotent, and safe
   * when several server instances start at once: they wait on one advisory lock. With
   * `analytics`, it also creates the analytics consumer at the log's head if missing. Rejects,
   * applying nothing, on a database whose old `analytics_outbox` still holds records not
   * exported (docs/analytics.md, "Upgrading").
   */
  migrate(): Promise<void>
  /** Runs `SELECT 1`: resolves once the database answered (the readiness check's ping). */
  ping(): Promise<void>
  /**
   * Closes the client if this store created it (`openPostgresStore`, `openPgliteStore`); a store
   * made by `createPostgresStore` / `createPgliteStore` leaves the caller's client open.
   */
  close(): Promise<void>
  /**
   * The analytics export: the ingest log behind the projection, from when a store with
   * `analytics` first migrated the database.
   */
  readonly outbox: AnalyticsOutbox
  /**
   * Removes the analytics consumer of the ingest log, for turning the analytics store off for
   * good: the log no longer keeps segments for it. A store opened with `analytics` creates
   * it again, at the log's head. Resolves whether there was one.
   */
  detachAnalytics(): Promise<boolean>
}

/** Options of the store constructors. */
export interface StoreOptions {
  /**
   * Export events and spans to the analytics store. `migrate()` creates the `analytics` consumer
   * of the ingest log at its head, so every record accepted from then on is exported once
   * projected (by any process: the consumer belongs to the database, until it is removed; see
   * docs/analytics.md). Called `analyticsOutbox` before the outbox table was dropped.
   * @default false
   */
  readonly analytics?: boolean
  /**
   * Rewrites the ops of every projection round before they are written (source-map resolution
   * of JavaScript frames), looking files up through the round's own transaction.
   * @default undefined (ops are projected as logged)
   */
  readonly enrich?: ProjectionEnricher | undefined
  /**
   * Keep the trigram index behind `q` text search on event messages. `migrate()` creates it
   * when missing (and pg_trgm is installed) or drops it when `false`: without it search scans
   * a project's events newest first, and each projected event costs PostgreSQL less
   * (docs/performance.md). Stores opened without `migrate()` leave the index as it is.
   * @default true
   */
  readonly textSearchIndex?: boolean | undefined
}

/** Assembles the store from its query groups over one executor. */
export function createStore(
  db: SqlExecutor,
  close: () => Promise<void>,
  options: StoreOptions = {},
): PostgresIngestStore {
  const analytics = options.analytics ?? false
  return {
    ...createUserQueries(db),
    ...createProjectQueries(db),
    ...createApiKeyQueries(db),
    ...createRateLimitQueries(db),
    ...createReadQueries(db),
    ...createSourceQueries(db),
    ...createSessionQueries(db),
    ...createChartQueries(db),
    ...createReleaseQueries(db),
    ...createCheckInQueries(db),
    ...createAlertConfigQueries(db),
    ...createAlertDeliveryQueries(db),
    ...createMissedMonitorQueries(db),
    ...createReleaseAlertQueries(db),
    ...createRetentionQueries(db),
    ...createArtifactQueries(db),
    ...createLogQueries(db, { enrich: options.enrich }),
    outbox: createOutboxQueries(db),
    detachAnalytics: () => detachAnalytics(db),
    async migrate() {
      await runMigrations(db)
      await applyTextSearchIndex(db, options.textSearchIndex ?? true)
      if (analytics) await attachAnalytics(db)
    },
    ping: async () => {
      await db.query('SELECT 1')
    },
    close,
  }
}
