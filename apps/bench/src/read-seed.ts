import { createPostgresStore } from '@tis/storage-postgres'
import postgres, { type Sql } from 'postgres'
import { appendAndProject, type SeedStore } from './seed-load'
import { deploymentOps, eventOps, spanOps } from './seed-ops'
import { ENVIRONMENTS, issueNumber, type SeedShape } from './seed-shape'

export type { SeedShape } from './seed-shape'
export { ENVIRONMENTS, METRIC_NAMES, RELEASES, TRANSACTION_NAMES } from './seed-shape'

/** One project to seed and its shape. */
export interface SeedTarget {
  readonly projectId: string
  readonly shape: SeedShape
  /** Every event carries an `event_id`, so each has an idempotency key. @default false */
  readonly keys?: boolean
}

/** Wall-clock seconds of each seeding step. */
export type SeedTimings = Record<string, number>

/** A database to seed: the store over it, and plain SQL for the maintenance around the load. */
export interface SeedDatabase {
  readonly store: SeedStore
  query<T extends object = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>
  /** Statements run at once when rebuilding indexes. @default 1 */
  readonly parallel?: number
}

async function timed(timings: SeedTimings, step: string, fn: () => Promise<unknown>) {
  const start = performance.now()
  await fn()
  timings[step] = (timings[step] ?? 0) + (performance.now() - start) / 1000
}

/** 5% of the issues resolved and 2% ignored, through the store as the read API sets them. */
async function issueStatuses(db: SeedDatabase, projectId: string) {
  const issues = await db.query<{ id: string; title: string }>(
    'select id::text as id, title from issues where project_id = $1::uuid',
    [projectId],
  )
  for (const { id, title } of issues) {
    const n = issueNumber(title)
    if (n === null) continue
    const status = n % 20 === 0 ? 'resolved' : n % 50 === 1 ? 'ignored' : null
    if (status) await db.store.setIssueStatus(projectId, id, status)
  }
}

/**
 * Seeds the targets through the store's own write path: their records appended to the ingest
 * log and projected (seed-ops.ts), then deployments, issue statuses, and the log emptied once
 * projected (as its maintenance drops a day's partition every consumer has read). The secondary
 * indexes of `events` and `spans` are dropped first and built again afterwards with their exact
 * definitions (one sort per index instead of a million random inserts); then `VACUUM ANALYZE`,
 * as after any bulk load.
 */
export async function seedDatabase(
  db: SeedDatabase,
  targets: readonly SeedTarget[],
): Promise<SeedTimings> {
  const timings: SeedTimings = {}
  const now = Date.now()
  await db.store.maintainLog(new Date(now))
  const indexes = await db.query<{ name: string; def: string }>(`
    select indexname as name, indexdef as def from pg_indexes
    where schemaname = current_schema() and tablename in ('events', 'spans')
      and indexname not in (select conname from pg_constraint)`)
  for (const { name } of indexes) await db.query(`drop index ${name}`)
  for (const { projectId, shape, keys = false } of targets) {
    const options = { keys, now }
    await timed(timings, 'events', () =>
      appendAndProject(
        db.store,
        eventOps(projectId, shape, { from: 1, to: shape.events }, options),
      ),
    )
    await timed(timings, 'spans', () =>
      appendAndProject(db.store, spanOps(projectId, shape, options)),
    )
    await timed(timings, 'deployments, issue statuses', async () => {
      await db.store.append(deploymentOps(projectId, ENVIRONMENTS, now))
      await issueStatuses(db, projectId)
    })
  }
  await timed(timings, 'log emptied', () => db.query('truncate ingest_log'))
  await timed(timings, 'indexes', async () => {
    const queue = [...indexes]
    const worker = async () => {
      for (let i = queue.shift(); i; i = queue.shift()) await db.query(i.def)
    }
    await Promise.all(Array.from({ length: db.parallel ?? 1 }, worker))
  })
  await timed(timings, 'vacuum analyze', () => db.query('vacuum analyze'))
  return timings
}

/**
 * {@link seedDatabase} on PostgreSQL at `url`, with foreign-key triggers off for the load
 * (`session_replication_role = replica`: every reference is consistent by construction) and two
 * index builds at a time (one per core).
 */
export async function seed(url: string, targets: readonly SeedTarget[]): Promise<SeedTimings> {
  const sql = postgres(url, {
    max: 3,
    onnotice: () => {},
    connection: {
      session_replication_role: 'replica',
      maintenance_work_mem: '256MB',
      synchronous_commit: 'off',
    },
  })
  try {
    const query = <T>(text: string, params: unknown[] = []) =>
      sql.unsafe(text, params as never) as unknown as Promise<T[]>
    return await seedDatabase({ store: createPostgresStore(sql), query, parallel: 2 }, targets)
  } finally {
    await sql.end()
  }
}

/** Row count and total size (with indexes and TOAST) of the tables the reads touch. */
export async function tableSizes(sql: Sql) {
  const out: Array<{ table: string; rows: number; 'total size': string }> = []
  for (const table of ['events', 'spans', 'issues', 'monitors', 'deployments']) {
    const [r] = await sql<Array<{ n: number; size: string }>>`
      select (select count(*)::int from ${sql(table)}) as n,
        pg_size_pretty(pg_total_relation_size(${table}::regclass)) as size`
    out.push({ table, rows: r?.n ?? 0, 'total size': r?.size ?? '' })
  }
  return out
}
