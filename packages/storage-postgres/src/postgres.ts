import type postgres from 'postgres'
import { createPostgresExecutor } from './postgres-executor'
import { createStore, type PostgresIngestStore, type StoreOptions } from './store'

/**
 * Creates a store over a postgres.js client. The client must not transform column names
 * (no `transform: postgres.camel`); `close()` leaves it open, as the caller owns it.
 *
 * @example
 * ```ts
 * const sql = postgres(process.env.DATABASE_URL!)
 * const store = createPostgresStore(sql)
 * await store.migrate()
 * ```
 */
export function createPostgresStore(
  sql: postgres.Sql,
  options: StoreOptions = {},
): PostgresIngestStore {
  return createStore(createPostgresExecutor(sql), async () => {}, options)
}

/** Options of {@link openPostgresStore}. */
export interface OpenPostgresStoreOptions extends StoreOptions {
  /**
   * postgres.js options (pool size, ssl, timeouts…). NOTICE messages are discarded unless an
   * `onnotice` handler is given.
   * @default { max: 10 }
   */
  readonly client?: postgres.Options<Record<string, postgres.PostgresType>>
  /**
   * Applies pending migrations before resolving.
   * @default true
   */
  readonly migrate?: boolean
}

/**
 * Connects to PostgreSQL at `url`, applies the migrations and resolves the store; its `close()`
 * ends the connection pool it created.
 */
export async function openPostgresStore(
  url: string,
  options: OpenPostgresStoreOptions = {},
): Promise<PostgresIngestStore> {
  // Loaded here, not at the top: both drivers are optional peers, and a PGlite-only install
  // must still be able to import this package.
  const { default: connect } = await import('postgres')
  const sql = connect(url, { max: 10, onnotice: () => {}, ...options.client })
  const store = createStore(createPostgresExecutor(sql), () => sql.end({ timeout: 5 }), options)
  try {
    if (options.migrate ?? true) await store.migrate()
  } catch (error) {
    await sql.end({ timeout: 0 })
    throw error
  }
  return store
}
