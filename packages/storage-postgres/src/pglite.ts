import { mkdir } from 'node:fs/promises'
import type { PGlite } from '@electric-sql/pglite'
import { fsyncTree } from './fsync-tree'
import { createPgliteExecutor } from './pglite-executor'
import { initialiseApart } from './pglite-initdb'
import { type PgliteSync, pgliteCommitSyncOptions } from './pglite-sync'
import { createStore, type PostgresIngestStore, type StoreOptions } from './store'

/** Options of {@link openPgliteStore}. */
export interface PgliteStoreOptions extends StoreOptions {
  /**
   * How a database on a directory reaches the disk (see {@link PgliteSync}): `commit` flushes
   * every commit before it resolves and first flushes what the directory already holds; `off`
   * survives a killed process but not an operating-system crash. Ignored in memory.
   * @default 'commit'
   */
  readonly sync?: PgliteSync
  /**
   * PostgreSQL's `shared_buffers` inside PGlite (a size such as `16MB`). They live in PGlite's
   * WebAssembly memory, which never shrinks: with PGlite's own 128MB a reopened database held
   * about 145 MB more resident memory than with 16MB (311 against 167 MB, PGlite alone after
   * 300,000 inserted rows), while the operating system's file cache serves what the smaller
   * buffers do not hold (docs/performance.md, "Pace").
   * @default EMBEDDED_SHARED_BUFFERS
   */
  readonly sharedBuffers?: string
}

/** The embedded database's default `shared_buffers`. */
export const EMBEDDED_SHARED_BUFFERS = '16MB'

/** A `sharedBuffers` value: a whole number of kB, MB or GB, as PostgreSQL writes sizes. */
export const PGLITE_SIZE = /^[1-9][0-9]*(kB|MB|GB)$/

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
  options: PgliteStoreOptions = {},
): Promise<PostgresIngestStore> {
  // Loaded here, not at the top: both drivers are optional peers, and a postgres.js-only
  // install must still be able to import this package.
  const { PGlite } = await import('@electric-sql/pglite')
  // pg_trgm backs `q` text search with an index (migration 0008).
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm')
  const directory = dataDir === undefined ? undefined : localDirectory(dataDir)
  if (directory !== undefined) {
    await mkdir(directory, { recursive: true })
    await initialiseApart(directory)
  }
  const extensions = { pg_trgm }
  const sync = directory === undefined ? 'off' : (options.sync ?? 'commit')
  const sharedBuffers = options.sharedBuffers ?? EMBEDDED_SHARED_BUFFERS
  if (!PGLITE_SIZE.test(sharedBuffers)) {
    throw new Error(
      `sharedBuffers must be a size such as 16MB (kB, MB or GB), not ${sharedBuffers}`,
    )
  }
  const settings = ['-c', `shared_buffers=${sharedBuffers}`]
  const committing = sync === 'commit' && directory !== undefined
  const where = committing
    ? await pgliteCommitSyncOptions(directory)
    : { startParams: PGlite.defaultStartParams, ...(dataDir === undefined ? {} : { dataDir }) }
  const db = await PGlite.create({
    extensions,
    ...where,
    startParams: [...where.startParams, ...settings],
  })
  const store = createStore(createPgliteExecutor(db), () => db.close(), options)
  try {
    if (committing) await fsyncTree(directory)
    await store.migrate()
  } catch (error) {
    await db.close()
    throw error
  }
  return store
}

/** The directory of a PGlite data dir on the local filesystem (a path or `file://`), else none. */
function localDirectory(dataDir: string): string | undefined {
  if (dataDir.startsWith('file://')) return dataDir.slice('file://'.length)
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(dataDir) ? undefined : dataDir
}
