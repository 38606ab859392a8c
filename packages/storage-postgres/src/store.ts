import type {
  AnalyticsOutbox,
  IngestLog,
  IngestStore,
  ProjectionStore,
  RateLimitStore,
} from '@tis/ingest'
import { createApiKeyQueries } from './api-keys'
import { createChartQueries } from './chart-reads'
import { createCheckInQueries } from './check-in-reads'
import type { SqlExecutor } from './executor'
import { createLogQueries } from './log/log-queries'
import { runMigrations } from './migrate'
import { createOutboxQueries } from './outbox'
import { createProjectQueries } from './projects'
import { createRateLimitQueries } from './rate-limits'
import { createReadQueries } from './reads'
import { createSessionQueries } from './sessions'
import { createSourceQueries } from './source-files'
import { createUserQueries } from './users'
import { writeBatch } from './write-batch'

/** An {@link IngestStore} over PostgreSQL (postgres.js) or PGlite, with its schema migrations. */
export interface PostgresIngestStore
  extends Omit<IngestStore, keyof RateLimitStore>,
    RateLimitStore,
    IngestLog,
    ProjectionStore {
  /**
   * Applies pending schema migrations (recorded in `schema_migrations`). Idempotent, and safe
   * when several server instances start at once: they wait on one advisory lock.
   */
  migrate(): Promise<void>
  /** Runs `SELECT 1`: resolves once the database answered (the readiness check's ping). */
  ping(): Promise<void>
  /**
   * Closes the client if this store created it (`openPostgresStore`, `openPgliteStore`); a store
   * made by `createPostgresStore` / `createPgliteStore` leaves the caller's client open.
   */
  close(): Promise<void>
  /** The analytics export queue (filled by `writeBatch` when `analyticsOutbox` is on). */
  readonly outbox: AnalyticsOutbox
}

/** Options of the store constructors. */
export interface StoreOptions {
  /**
   * Queue every written event and span in the analytics outbox, in the transaction that stores
   * it, for export to the analytics store. Records written while off are never queued.
   * @default false
   */
  readonly analyticsOutbox?: boolean
}

/** Assembles the store from its query groups over one executor. */
export function createStore(
  db: SqlExecutor,
  close: () => Promise<void>,
  options: StoreOptions = {},
): PostgresIngestStore {
  const analyticsOutbox = options.analyticsOutbox ?? false
  return {
    ...createUserQueries(db),
    ...createProjectQueries(db),
    ...createApiKeyQueries(db),
    ...createRateLimitQueries(db),
    ...createReadQueries(db),
    ...createSourceQueries(db),
    ...createSessionQueries(db),
    ...createChartQueries(db),
    ...createCheckInQueries(db),
    writeBatch: (batch, write) => writeBatch(db, batch, { ...write, analyticsOutbox }),
    ...createLogQueries(db, { analyticsOutbox }),
    outbox: createOutboxQueries(db),
    migrate: () => runMigrations(db),
    ping: async () => {
      await db.query('SELECT 1')
    },
    close,
  }
}
