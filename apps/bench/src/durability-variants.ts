// The ways of making the embedded PGlite database durable that the durability benchmark compares:
// today's default, the one tis ships (SERVICE_EMBEDDED_SYNC=commit) and the alternatives tried.
import { PGlite, type PGliteOptions } from '@electric-sql/pglite'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import {
  createPgliteStore,
  openPgliteStore,
  type PostgresIngestStore,
  pgliteCommitSyncOptions,
} from '@tis/storage-postgres'

/** One way of opening the database on a directory. */
export interface Variant {
  readonly name: string
  /** What a 201 means for an operating-system crash or power loss. */
  readonly guarantee: string
  open(dir: string): Promise<PostgresIngestStore>
}

/** A store over a PGlite created with `options`; closing the store closes the database. */
async function storeOver(options: PGliteOptions): Promise<PostgresIngestStore> {
  const db = await PGlite.create({ ...options, extensions: { pg_trgm } })
  const store = createPgliteStore(db)
  await store.migrate()
  return { ...store, close: () => db.close() }
}

/** Commits every `ms` in the background (a synchronous commit flushes all WAL before it). */
function flushEvery(store: PostgresIngestStore, db: PGlite, ms: number): PostgresIngestStore {
  const timer = setInterval(() => {
    db.transaction(async (tx) => {
      await tx.exec('SET LOCAL synchronous_commit = on')
      await tx.query('SELECT pg_current_xact_id()')
    }).catch(() => {})
  }, ms)
  return {
    ...store,
    close: async () => {
      clearInterval(timer)
      await store.close()
    },
  }
}

/** The variants, today's default first (the baseline of every ratio). */
export const VARIANTS: readonly Variant[] = [
  {
    name: 'off (today: PGlite defaults)',
    guarantee: 'may lose recent commits; data directory may be corrupt',
    open: (dir) => openPgliteStore(dir, { sync: 'off' }),
  },
  {
    name: 'fsync=on alone',
    guarantee: 'same as off: no fsync(2) is ever made',
    open: (dir) =>
      storeOver({ dataDir: dir, startParams: [...PGlite.defaultStartParams, '-c', 'fsync=on'] }),
  },
  {
    name: 'commit (shipped)',
    guarantee: 'every acknowledged commit on disk',
    open: (dir) => openPgliteStore(dir, { sync: 'commit' }),
  },
  {
    name: 'commit, WAL opened O_SYNC',
    guarantee: 'every acknowledged commit on disk',
    open: async (dir) => {
      const options = await pgliteCommitSyncOptions(dir)
      return storeOver({
        ...options,
        startParams: [...options.startParams, '-c', 'wal_sync_method=open_datasync'],
      })
    },
  },
  {
    name: 'interval: async commit, flush every 200 ms',
    guarantee: 'loses the last commits even when only the process is killed',
    open: async (dir) => {
      const options = await pgliteCommitSyncOptions(dir)
      const db = await PGlite.create({
        ...options,
        startParams: [...options.startParams, '-c', 'synchronous_commit=off'],
        extensions: { pg_trgm },
      })
      const store = createPgliteStore(db)
      await store.migrate()
      return flushEvery({ ...store, close: () => db.close() }, db, 200)
    },
  },
]
