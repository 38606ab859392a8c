// `pnpm --filter @tis/bench run bench:retention` (issue 23): ingest latency while a retention
// pass expires a month of a 1-million-event project, and what the pass does to the disk.
//
// A durable PostgreSQL is bulk-seeded with BENCH_RETENTION_EVENTS events (and a fifth as many
// spans) spread evenly over the last BENCH_RETENTION_SPREAD_DAYS days (120), with their issues,
// check-ins and idempotency keys; the period is BENCH_RETENTION_KEEP_DAYS (90), so a quarter
// expires. The server's own passes are off (SERVICE_RETENTION_DAYS=0); the pass is `tis prune`
// in its own process against the same database. Single events go in at half the peak rate
// measured first: a window without a pass, a window from just before the pass started until it
// ended, a plain VACUUM, and a window without a pass again. Then the disk: the expired number of
// events again (the last window's over HTTP, the rest inserted by SQL with the live indexes:
// space reuse), and VACUUM FULL (the maintenance window).
import { startTestPostgres } from '@tis/test-utils/postgres'
import postgres from 'postgres'
import { load } from './ingest-load'
import { ADMIN_TOKEN, SERVER_MAIN, serverEnv } from './ingest-servers'
import { createProjectWithKey } from './management-client'
import { type RunningServer, startNode } from './processes'
import { caughtUp } from './projection-lag'
import { type DiskStep, diskStep } from './retention-disk'
import { deleted, loadRow, type PassResult, prune, startLoad } from './retention-load'
import { report } from './retention-report'
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
/** Pass, VACUUM and as many events again: the first under load, the others without. */
const CYCLES = num('BENCH_RETENTION_CYCLES', 2)
const settings = {
  events: EVENTS,
  spreadDays: SPREAD_DAYS,
  keepDays: KEEP_DAYS,
  peakSeconds: PEAK_SECONDS,
}
const passEnv = {
  SERVICE_RETENTION_DAYS: String(KEEP_DAYS),
  ...(process.env['BENCH_RETENTION_BATCH_SIZE']
    ? { SERVICE_RETENTION_BATCH_SIZE: process.env['BENCH_RETENTION_BATCH_SIZE'] }
    : {}),
}

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now()
  const value = await fn()
  return [value, (performance.now() - started) / 1000]
}

/**
 * The load windows and the pass, against a running server; between the pass and the last
 * window, a plain VACUUM (the server idle).
 */
async function underLoad(server: RunningServer, token: string, databaseUrl: string) {
  const peak = await load(
    server.url,
    { authorization: `Bearer ${token}` },
    { duration: PEAK_SECONDS },
  )
  const rate = peak.requests.average / 2
  const window = async (name: string) => {
    const [result, seconds] = await timed(() => startLoad(server.url, token, rate, WINDOW).done)
    return { row: loadRow(name, result, seconds), stored: result['2xx'] }
  }
  const before = await window('without a pass (before)')
  await caughtUp(server.url)
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} })
  try {
    const disk = [await diskStep(sql, 'before the pass')]
    const started = performance.now()
    // At most an hour: stopped as soon as the pass ends.
    const running = startLoad(server.url, token, rate, 3_600)
    await new Promise((r) => setTimeout(r, LEAD * 1000))
    let pass: PassResult
    try {
      pass = await prune(databaseUrl, passEnv)
    } finally {
      running.stop()
    }
    const seconds = (performance.now() - started) / 1000
    const during = loadRow('during the pass', await running.done, seconds)
    await caughtUp(server.url)
    disk.push(await diskStep(sql, 'after the pass'))
    const vacuumSeconds = (await timed(() => sql`vacuum`))[1]
    disk.push(await diskStep(sql, 'after VACUUM'))
    const after = await window('without a pass (after)')
    await caughtUp(server.url)
    const rows = [before.row, during, after.row]
    return { peak, rate, rows, pass, disk, vacuumSeconds, afterStored: after.stored }
  } finally {
    await sql.end()
  }
}

/**
 * A second plain VACUUM (a B-tree page emptied by one VACUUM is reused only after the next: as
 * autovacuum runs again), the expired number of events again (the last window's over HTTP, the
 * rest inserted), further cycles without load (a pass of 30 more days, VACUUM twice, as many
 * events again), then VACUUM FULL: each step's sizes.
 */
async function diskSteps(databaseUrl: string, projectId: string, expired: number, http: number) {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} })
  const steps: DiskStep[] = []
  const seconds: Record<string, number> = {}
  const step = async (name: string, fn: () => Promise<unknown>) => {
    seconds[name] = (await timed(fn))[1]
    steps.push(await diskStep(sql, name))
  }
  const n = (x: number) => x.toLocaleString('en-US')
  try {
    await step('second VACUUM (after the last window)', () => sql`vacuum`)
    const again = Math.max(0, expired - http)
    await step(`${n(expired)} events again (${n(http)} over HTTP, ${n(again)} inserted)`, () =>
      insertAgain(databaseUrl, projectId, again),
    )
    const shift = SPREAD_DAYS - KEEP_DAYS
    for (let cycle = 2, days = KEEP_DAYS - shift; cycle <= CYCLES && days > 0; cycle++) {
      let gone = 0
      await step(`pass ${cycle}: ${days} days, no load`, async () => {
        gone = deleted(
          (await prune(databaseUrl, { ...passEnv, SERVICE_RETENTION_DAYS: `${days}` })).report,
        ).events
      })
      await step(`pass ${cycle}: VACUUM twice`, async () => {
        await sql`vacuum`
        await sql`vacuum`
      })
      await step(`pass ${cycle}: ${n(gone)} events again`, () =>
        insertAgain(databaseUrl, projectId, gone),
      )
      days -= shift
    }
    if (VACUUM_FULL) {
      await step('after VACUUM FULL', () => sql`vacuum full events, spans, check_ins, ingest_keys`)
    }
  } finally {
    await sql.end()
  }
  return { steps, seconds }
}

async function main() {
  const pg = await startTestPostgres({ durable: true })
  // No pass of the server's own: the bench starts the one it measures.
  const env = { ...serverEnv, DATABASE_URL: pg.url, SERVICE_RETENTION_DAYS: '0' }
  let server = await startNode([SERVER_MAIN], env)
  try {
    const { projectId, token } = await createProjectWithKey(server.url, ADMIN_TOKEN, 'retention')
    await server.stop()
    const [timings, seedSeconds] = await timed(() =>
      seedRetention(pg.url, projectId, retentionShape(EVENTS, SPREAD_DAYS)),
    )
    server = await startNode([SERVER_MAIN], env)
    const seeded = await (async () => {
      const sql = postgres(pg.url, { max: 1, onnotice: () => {} })
      try {
        return await diskStep(sql, 'seeded')
      } finally {
        await sql.end()
      }
    })()
    const run = await underLoad(server, token, pg.url)
    await server.stop()
    const gone = deleted(run.pass.report)
    const later = await diskSteps(pg.url, projectId, gone.events, run.afterStored)
    const disk = [seeded, ...run.disk, ...later.steps]
    const maintenance = { 'VACUUM (after the pass)': run.vacuumSeconds, ...later.seconds }
    report({ ...run, disk, gone, seedSeconds, timings, maintenance }, settings)
  } finally {
    await server.stop()
    await pg.stop()
  }
}

await main()
