// `pnpm --filter @tis/bench run bench:retention`: ingest latency while a retention
// pass expires a month of a 1-million-event project, and what the pass does to the disk.
//
// A durable PostgreSQL is bulk-seeded with BENCH_RETENTION_EVENTS events (and a fifth as many
// spans) spread evenly over the last BENCH_RETENTION_SPREAD_DAYS days (120), with their issues,
// check-ins and idempotency keys; the period is BENCH_RETENTION_KEEP_DAYS (90), so a quarter
// expires. The server's own passes are off (SERVICE_RETENTION_DAYS=0); each pass is `tis prune`
// in its own process against the same database. Single events go in at half the peak rate
// measured first. Each cycle: a window without a pass, a window from just before the pass
// started until it ended, a plain VACUUM, a window without a pass again, a second plain VACUUM
// (a B-tree page emptied by one VACUUM is reused only after the next, as autovacuum runs again),
// and the expired number of events back (the last window's over HTTP, the rest inserted by SQL
// with the live indexes): space reuse. Each further cycle's pass keeps 30 days less (the next
// month expires). At the end, VACUUM FULL (the maintenance window).
import { startTestPostgres } from '@tis/test-utils/postgres'
import postgres from 'postgres'
import { load } from './ingest-load'
import { ADMIN_TOKEN, SERVER_MAIN, serverEnv } from './ingest-servers'
import { createProjectWithKey } from './management-client'
import { type RunningServer, startNode } from './processes'
import { caughtUp } from './projection-lag'
import { type DiskStep, diskStep } from './retention-disk'
import { deleted, loadRow, type PassResult, prune, startLoad } from './retention-load'
import { type Cycle, report } from './retention-report'
import { insertAgain, retentionShape, seedRetention } from './retention-seed'

const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback)
const EVENTS = num('BENCH_RETENTION_EVENTS', 1_000_000)
const SPREAD_DAYS = num('BENCH_RETENTION_SPREAD_DAYS', 120)
const KEEP_DAYS = num('BENCH_RETENTION_KEEP_DAYS', 90)
/** Seconds of each window without a pass. */
const WINDOW = num('BENCH_RETENTION_WINDOW', 30)
/** Seconds of the closed-loop run that finds the peak. */
const PEAK_SECONDS = num('BENCH_RETENTION_PEAK_SECONDS', 10)
/** Seconds of load before the pass starts. */
const LEAD = 2
const VACUUM_FULL = process.env['BENCH_RETENTION_VACUUM_FULL'] !== '0'
/** Cycles of pass, VACUUM and the events back, each under load; each pass keeps 30 days less. */
const CYCLES = num('BENCH_RETENTION_CYCLES', 2)
const settings = {
  events: EVENTS,
  spreadDays: SPREAD_DAYS,
  keepDays: KEEP_DAYS,
  peakSeconds: PEAK_SECONDS,
}
const batchEnv: Record<string, string> = process.env['BENCH_RETENTION_BATCH_SIZE']
  ? { SERVICE_RETENTION_BATCH_SIZE: process.env['BENCH_RETENTION_BATCH_SIZE'] }
  : {}

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now()
  const value = await fn()
  return [value, (performance.now() - started) / 1000]
}

/** What one cycle needs: the server, its database and the load's rate. */
interface Target {
  readonly server: RunningServer
  readonly token: string
  readonly projectId: string
  readonly databaseUrl: string
  readonly rate: number
  readonly sql: postgres.Sql
}

/** One cycle (see the top of the file) with a pass that keeps `days`; disk sizes at each step. */
async function cycle(t: Target, label: string, days: number): Promise<Cycle> {
  const disk: DiskStep[] = []
  const seconds: Record<string, number> = {}
  const step = async (name: string, fn: () => Promise<unknown>) => {
    seconds[`${label}: ${name}`] = (await timed(fn))[1]
    disk.push(await diskStep(t.sql, `${label}: ${name}`))
  }
  const window = async (name: string) => {
    const [result, s] = await timed(() => startLoad(t.server.url, t.token, t.rate, WINDOW).done)
    await caughtUp(t.server.url)
    return { row: loadRow(name, result, s), stored: result['2xx'] }
  }
  const before = await window('without a pass (before)')
  disk.push(await diskStep(t.sql, `${label}: before the pass`))
  const started = performance.now()
  // At most an hour: stopped as soon as the pass ends.
  const running = startLoad(t.server.url, t.token, t.rate, 3_600)
  await new Promise((r) => setTimeout(r, LEAD * 1000))
  let pass: PassResult
  try {
    pass = await prune(t.databaseUrl, { ...batchEnv, SERVICE_RETENTION_DAYS: String(days) })
  } finally {
    running.stop()
  }
  const during = loadRow(
    'during the pass',
    await running.done,
    (performance.now() - started) / 1000,
  )
  await caughtUp(t.server.url)
  disk.push(await diskStep(t.sql, `${label}: after the pass`))
  await step('VACUUM', () => t.sql`vacuum`)
  const after = await window('without a pass (after)')
  await step('second VACUUM, after the last window', () => t.sql`vacuum`)
  const gone = deleted(pass.report)
  const again = Math.max(0, gone.events - after.stored)
  await step(
    `${gone.events.toLocaleString('en-US')} events again (${after.stored.toLocaleString('en-US')} over HTTP, ${again.toLocaleString('en-US')} inserted)`,
    () => insertAgain(t.databaseUrl, t.projectId, again),
  )
  return { label, days, rows: [before.row, during, after.row], pass, gone, disk, seconds }
}

async function main() {
  const pg = await startTestPostgres({ durable: true })
  // No pass of the server's own: the bench starts the ones it measures.
  const env = { ...serverEnv, DATABASE_URL: pg.url, SERVICE_RETENTION_DAYS: '0' }
  let server = await startNode([SERVER_MAIN], env)
  const sql = postgres(pg.url, { max: 1, onnotice: () => {} })
  try {
    const { projectId, token } = await createProjectWithKey(server.url, ADMIN_TOKEN, 'retention')
    await server.stop()
    const [timings, seedSeconds] = await timed(() =>
      seedRetention(pg.url, projectId, retentionShape(EVENTS, SPREAD_DAYS)),
    )
    server = await startNode([SERVER_MAIN], env)
    const seeded = await diskStep(sql, 'seeded')
    const peak = await load(
      server.url,
      { authorization: `Bearer ${token}` },
      { duration: PEAK_SECONDS },
    )
    const rate = peak.requests.average / 2
    const target = { server, token, projectId, databaseUrl: pg.url, rate, sql }
    const cycles: Cycle[] = []
    const shift = SPREAD_DAYS - KEEP_DAYS
    for (let k = 1, days = KEEP_DAYS; k <= CYCLES && days > 0; k++, days -= shift) {
      cycles.push(await cycle(target, `pass ${k}`, days))
    }
    await server.stop()
    const end: DiskStep[] = []
    const maintenance: Record<string, number> = {}
    if (VACUUM_FULL) {
      const [, s] = await timed(() => sql`vacuum full events, spans, check_ins, ingest_keys`)
      maintenance['VACUUM FULL'] = s
      end.push(await diskStep(sql, 'after VACUUM FULL'))
    }
    report({ peak, rate, cycles, seeded, end, seedSeconds, timings, maintenance }, settings)
  } finally {
    await sql.end()
    await server.stop()
    await pg.stop()
  }
}

await main()
