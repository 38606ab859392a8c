import postgres, { type Sql } from 'postgres'
import {
  eventsSql,
  issuesSql,
  issueTotalsSql,
  monitorsAndDeploymentsSql,
  type SeedShape,
  spansSql,
} from './read-seed-sql'

/** One project to seed and its shape. */
export interface SeedTarget {
  readonly projectId: string
  readonly shape: SeedShape
}

/** Wall-clock seconds of each seeding step. */
export type SeedTimings = Record<string, number>

async function timed(timings: SeedTimings, step: string, fn: () => Promise<unknown>) {
  const start = performance.now()
  await fn()
  timings[step] = (timings[step] ?? 0) + (performance.now() - start) / 1000
}

/** The two halves of `[1, n]`, loaded at once on two connections (one per core). */
function halves(n: number) {
  const mid = Math.floor(n / 2)
  return [
    { from: 1, to: mid },
    { from: mid + 1, to: n },
  ]
}

/**
 * Bulk-seeds the targets. The secondary indexes of `events` and `spans` are dropped first and
 * built again afterwards with their exact definitions (one sort per index instead of a million
 * random inserts), and foreign-key triggers are off for the load
 * (`session_replication_role = replica`: every reference is made consistent by construction);
 * then `VACUUM ANALYZE`, as after any bulk load.
 */
export async function seed(url: string, targets: readonly SeedTarget[]): Promise<SeedTimings> {
  const timings: SeedTimings = {}
  const sql = postgres(url, {
    max: 2,
    onnotice: () => {},
    connection: { session_replication_role: 'replica', maintenance_work_mem: '256MB' },
  })
  try {
    const indexes = await sql<Array<{ name: string; def: string }>>`
      select indexname as name, indexdef as def from pg_indexes
      where schemaname = current_schema() and tablename in ('events', 'spans')
        and indexname not in (select conname from pg_constraint)`
    for (const { name } of indexes) await sql.unsafe(`drop index ${name}`)
    for (const { projectId, shape } of targets) {
      await timed(timings, 'issues', () => sql.unsafe(issuesSql(projectId, shape)))
      await timed(timings, 'events', () =>
        Promise.all(halves(shape.events).map((h) => sql.unsafe(eventsSql(projectId, shape, h)))),
      )
      await timed(timings, 'spans', () => sql.unsafe(spansSql(projectId, shape)))
      await timed(timings, 'monitors, deployments', async () => {
        for (const s of monitorsAndDeploymentsSql(projectId)) await sql.unsafe(s)
      })
    }
    // Two at a time, one per connection.
    await timed(timings, 'indexes', async () => {
      const queue = [...indexes]
      const worker = async () => {
        for (let i = queue.shift(); i; i = queue.shift()) await sql.unsafe(i.def)
      }
      await Promise.all([worker(), worker()])
    })
    await timed(timings, 'issue totals', async () => {
      for (const { projectId } of targets) await sql.unsafe(issueTotalsSql(projectId))
    })
    await timed(timings, 'vacuum analyze', () => sql`vacuum analyze`)
  } finally {
    await sql.end()
  }
  return timings
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
