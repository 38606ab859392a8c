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
import { loadavg } from 'node:os'
import { startTestPostgres } from '@tis/test-utils/postgres'
import postgres from 'postgres'
import { load } from './ingest-load'
import { ADMIN_TOKEN, SERVER_MAIN, serverEnv } from './ingest-servers'
import { createProjectWithKey } from './management-client'
import { type RunningServer, startNode } from './processes'
import { caughtUp } from './projection-lag'
import { type Figure, saveFigures } from './results'
import { type DiskStep, diskNote, diskStep, diskTable, mb } from './retention-disk'
import { deleted, loadRow, type PassResult, prune, startLoad } from './retention-load'
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
 * The expired number of events again (the last window's over HTTP, the rest inserted), then
 * VACUUM FULL: each step's sizes.
 */
async function diskSteps(databaseUrl: string, projectId: string, expired: number, http: number) {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} })
  const steps: DiskStep[] = []
  const seconds: Record<string, number> = {}
  const again = Math.max(0, expired - http)
  try {
    seconds['insert again'] = (await timed(() => insertAgain(databaseUrl, projectId, again)))[1]
    steps.push(
      await diskStep(
        sql,
        `${expired.toLocaleString('en-US')} events again (${http} over HTTP, ${again} inserted)`,
      ),
    )
    if (VACUUM_FULL) {
      seconds['VACUUM FULL'] = (
        await timed(() => sql`vacuum full events, spans, check_ins, ingest_keys`)
      )[1]
      steps.push(await diskStep(sql, 'after VACUUM FULL'))
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
    const maintenance = { VACUUM: run.vacuumSeconds, ...later.seconds }
    report({ ...run, disk, gone, seedSeconds, timings, maintenance })
  } finally {
    await server.stop()
    await pg.stop()
  }
}

type Run = Awaited<ReturnType<typeof underLoad>> & {
  gone: ReturnType<typeof deleted>
  seedSeconds: number
  timings: Record<string, number>
  maintenance: Record<string, number>
}

function report(r: Run) {
  const [before, during, after] = r.rows as [
    ReturnType<typeof loadRow>,
    ReturnType<typeof loadRow>,
    ReturnType<typeof loadRow>,
  ]
  const ratio = during['p99 ms'] / Math.max(1, before['p99 ms'])
  const fixed = (n: number, d = 1) => n.toFixed(d)
  const seconds = (o: Record<string, number>) =>
    Object.fromEntries(Object.entries(o).map(([k, v]) => [k, fixed(v)]))
  console.log(
    `\n${EVENTS.toLocaleString('en-US')} events over ${SPREAD_DAYS} days seeded in ${fixed(r.seedSeconds)} s; period ${KEEP_DAYS} days`,
  )
  console.table(seconds(r.timings))
  console.log(
    `\npeak (closed loop, ${PEAK_SECONDS} s): ${Math.round(r.peak.requests.average)} req/s, p99 ${r.peak.latency.p99} ms; windows at half of it, ${Math.round(r.rate)} req/s`,
  )
  console.table(r.rows)
  console.log(
    `retention pass (tis prune, own process): ${fixed(r.pass.seconds)} s; deleted ${r.gone.events} events, ${r.gone.spans} spans, ${r.gone.checkIns} check-ins; ${r.gone.issues} issues marked expired`,
  )
  console.log(
    `ingest p99 during / without the pass: ${during['p99 ms']} / ${before['p99 ms']} ms = ${fixed(ratio, 2)}× (bar: 2×) — ${ratio <= 2 ? 'within' : 'OVER'}; after the pass: ${after['p99 ms']} ms; load average ${fixed(loadavg()[0] ?? 0)}`,
  )
  console.log('\nDisk (MB = 10^6 bytes)')
  console.table(diskTable(r.disk))
  console.table(seconds(r.maintenance))
  const step = (prefix: string) => r.disk.find((d) => d.step.startsWith(prefix))
  const [beforePass, vacuumed, again, full] = [
    'before',
    'after VACUUM',
    `${r.gone.events.toLocaleString('en-US')} events again`,
    'after VACUUM FULL',
  ].map(step)
  const scale = `${EVENTS.toLocaleString('en-US')} events, ${r.gone.events.toLocaleString('en-US')} expired`
  const figures: Figure[] = [
    {
      what: `ingest p99 during a retention pass (${scale}), half the peak rate (${Math.round(r.rate)} req/s)`,
      value: during['p99 ms'],
      unit: 'ms',
      baseline: 'p99 without a pass, same rate (bar: 2×)',
      baselineValue: before['p99 ms'],
      note: `p50 ${during['p50 ms']} / ${before['p50 ms']} ms; p99 after the pass ${after['p99 ms']} ms; ${during['non-2xx']} non-2xx`,
    },
    {
      what: `retention pass (tis prune) under load, ${scale}`,
      value: Math.round(r.pass.seconds * 10) / 10,
      unit: 's',
      note: `deleted ${r.gone.events} events, ${r.gone.spans} spans, ${r.gone.checkIns} check-ins`,
    },
  ]
  if (beforePass && vacuumed) {
    figures.push({
      what: 'database size after the pass and a plain VACUUM',
      value: mb(vacuumed.database),
      unit: 'MB',
      baseline: 'before the pass',
      baselineValue: mb(beforePass.database),
      note: [again, full].flatMap((d) => (d ? [diskNote(d)] : [])).join('; '),
    })
  }
  if (vacuumed && again) {
    figures.push({
      what: `events table (with indexes) after inserting the ${r.gone.events.toLocaleString('en-US')} expired events' number again`,
      value: mb(again.events),
      unit: 'MB',
      baseline: 'after the pass and VACUUM',
      baselineValue: mb(vacuumed.events),
      note: `database without the ingest log ${mb(again.database - again.ingestLog)} MB, was ${mb(vacuumed.database - vacuumed.ingestLog)} MB`,
    })
  }
  saveFigures('6-retention', figures)
  if (before['non-2xx'] + during['non-2xx'] + after['non-2xx'] > 0) process.exitCode = 1
}

await main()
