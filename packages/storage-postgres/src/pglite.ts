import { mkdir } from 'node:fs/promises'
import type { PGlite } from '@electric-sql/pglite'
import { createPgliteExecutor } from './pglite-executor'
import { createStore, type PostgresIngestStore, type StoreOptions } from './store'

/**
 * Creates a store over a PGlite database (in-process PostgreSQL). `close()` leaves the database
 * open, as the caller owns it.
 *
 * @example
 * ```ts
 * const store = createPgliteStore(await PGlite.create())
 * await store.migrate()
 * ```
 */
export function createPgliteStore(db: PGlite, options: StoreOptions = {}): PostgresIngestStore {
  return createStore(createPgliteExecutor(db), async () => {}, options)
}

/**
 * Opens PGlite on `dataDir` (a directory, created with its parents when missing; or a PGlite
 * URL such as `memory://`), or in memory when `undefined`, applies the migrations and resolves
 * the store; its `close()` closes the database.
 */
export async function openPgliteStore(
  dataDir: string | undefined,
  options: StoreOptions = {},
): Promise<PostgresIngestStore> {
  // Loaded here, not at the top: both drivers are optional peers, and a postgres.js-only
  // install must still be able to import this package.
  const { PGlite } = await import('@electric-sql/pglite')
  // pg_trgm backs `q` text search with an index (migration 0008).
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm')
  if (dataDir !== undefined && !/^[a-z]+:\/\//i.test(dataDir)) {
    await mkdir(dataDir, { recursive: true })
  }
  const extensions = { pg_trgm }
  const db =
    dataDir === undefined
      ? await PGlite.create({ extensions })
      : await PGlite.create(dataDir, { extensions })
  const store = createStore(createPgliteExecutor(db), () => db.close(), options)
  try {
    await store.migrate()
  } catch (error) {
    await db.close()
    throw error
  }
  return store
}
