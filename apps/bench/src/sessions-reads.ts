// The read side of the release-health benchmark: a project seeded through the store's own append
// and projection (sessions-seed.ts, plus error events and deployments for the release's new
// issues and deployments), and the latency of one read repeated one request at a time.
import { createPostgresStore } from '@tis/storage-postgres'
import postgres from 'postgres'
import { quantile } from './quantile'
import { appendAndProject } from './seed-load'
import { deploymentOps, eventOps } from './seed-ops'
import { ENVIRONMENTS } from './seed-shape'
import { sessionOps } from './sessions-seed'

/** Seconds of each seeding step and the row counts it left. */
export interface ReleaseSeed {
  readonly seconds: Record<string, number>
  readonly rows: Record<string, number>
}

const TABLES = ['session_minutes', 'session_users', 'releases', 'issues', 'deployments']

/**
 * Seeds `projectId` on PostgreSQL at `url`: 30 days of session aggregates, 3,000 events (their
 * errors over 40 issues, most first seen in the oldest release) and a deployment of every release
 * to every environment; then the log emptied, as its maintenance does once it is projected, and
 * `VACUUM ANALYZE`.
 */
export async function seedReleaseHealth(url: string, projectId: string): Promise<ReleaseSeed> {
  const sql = postgres(url, {
    max: 3,
    onnotice: () => {},
    connection: { session_replication_role: 'replica', synchronous_commit: 'off' },
  })
  const seconds: Record<string, number> = {}
  const timed = async (step: string, fn: () => Promise<unknown>) => {
    const started = performance.now()
    await fn()
    seconds[step] = Math.round((performance.now() - started) / 100) / 10
  }
  try {
    const store = createPostgresStore(sql)
    const now = Date.now()
    await store.maintainLog(new Date(now))
    await timed('sessions', () => appendAndProject(store, sessionOps(projectId, now)))
    await timed('events, deployments', async () => {
      const shape = { tag: 'releases', events: 3_000, issues: 40, spans: 0 }
      await appendAndProject(
        store,
        eventOps(projectId, shape, { from: 1, to: 3_000 }, { keys: false, now }),
      )
      await appendAndProject(store, deploymentOps(projectId, ENVIRONMENTS, now))
    })
    await timed('vacuum analyze', async () => {
      await sql`truncate ingest_log`
      await sql`vacuum analyze`
    })
    const rows: Record<string, number> = {}
    for (const table of TABLES) {
      const [r] = await sql<Array<{ n: number }>>`
        select count(*)::int as n from ${sql(table)} where project_id = ${projectId}`
      rows[table] = r?.n ?? 0
    }
    return { seconds, rows }
  } finally {
    await sql.end()
  }
}

/** Percentiles of one read, in ms. */
export interface ReadLatency {
  readonly read: string
  readonly requests: number
  readonly p50: number
  readonly p95: number
  readonly p99: number
  readonly max: number
  /** Answers other than 200. */
  readonly failed: number
}

/** Options of {@link timeRead}. */
export interface TimeReadOptions {
  readonly headers: Record<string, string>
  /** Unmeasured requests first. @default 20 */
  readonly warmUp?: number
  /** Measured requests. @default 300 */
  readonly requests?: number
}

const round2 = (n: number) => Math.round(n * 100) / 100

/** The percentiles of `ms` (any order), nearest rank, rounded to 0.01 ms. */
export function latencyOf(read: string, ms: readonly number[], failed = 0): ReadLatency {
  const sorted = [...ms].sort((a, b) => a - b)
  return {
    read,
    requests: sorted.length,
    p50: round2(quantile(sorted, 0.5)),
    p95: round2(quantile(sorted, 0.95)),
    p99: round2(quantile(sorted, 0.99)),
    max: round2(sorted.at(-1) ?? Number.NaN),
    failed,
  }
}

/** `GET url` one request at a time (keep-alive): the warm-up, then the measured requests. */
export async function timeRead(
  read: string,
  url: string,
  o: TimeReadOptions,
): Promise<ReadLatency> {
  let failed = 0
  const once = async () => {
    const started = performance.now()
    const res = await fetch(url, { headers: o.headers })
    await res.arrayBuffer()
    if (res.status !== 200) failed++
    return performance.now() - started
  }
  for (let i = 0; i < (o.warmUp ?? 20); i++) await once()
  failed = 0
  const ms: number[] = []
  for (let i = 0; i < (o.requests ?? 300); i++) ms.push(await once())
  return latencyOf(read, ms, failed)
}
