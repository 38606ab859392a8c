// The pace bench (issue 35): what tis costs per record, server + PostgreSQL processor time, next
// to the naive insert-per-request server's in the same run, and how fast what is acknowledged
// becomes readable: NDJSON batches with 1 and with 5,000 fingerprints, sustained rows/s over
// sending and the projection's catch-up. Each measured run comes with PostgreSQL's own account of
// its statements (pg_stat_statements) and, with BENCH_CPU_PROFILE=1, the server's CPU profile.
// The lag plan sends single events at 80% of the sustained single-event rate and samples how far
// the projection is behind (issue 35: its p99 at most 1 s).
//
//   pnpm --filter @tis/bench bench:pace
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createPostgresStore } from '@tis/storage-postgres'
import { startTestPostgres } from '@tis/test-utils/postgres'
import postgres from 'postgres'
import { cpuMeter, isNamed, microsPerRequest, parentOf, withChildren } from './cpu'
import { summariseProfile } from './cpu-profile'
import { load, meters, runCpu } from './ingest-load'
import { ADMIN_TOKEN, SERVER_MAIN, serverEnv } from './ingest-servers'
import { createProjectWithKey } from './management-client'
import { IN_FLIGHT, PACE_DURATION, runBatches } from './pace-batches'
import { measureEmbedded } from './pace-embedded'
import { measureEmbeddedBatches } from './pace-embedded-batches'
import { LAG_SECONDS, LAG_SHARE, runLag } from './pace-lag'
import { resetStatements, topStatements } from './pace-statements'
import { postgresBreakdown } from './pg-processes'
import { startNode } from './processes'
import { caughtUp } from './projection-lag'
import { type Figure, saveFigures } from './results'

const profiling = process.env['BENCH_CPU_PROFILE'] === '1'
/** Which loads run: `single`, `lag`, `batches`, `embedded` (all by default). */
const plans = (process.env['BENCH_PACE_PLANS'] ?? 'single,lag,batches,embedded').split(',')
/** Extra server environment of every tis run, as JSON (what-if runs: a round size, say). */
const extraEnv = JSON.parse(process.env['BENCH_PACE_ENV'] ?? '{}') as Record<string, string>
/** SQL run once the first server has migrated the database (what-if runs: an index dropped). */
const whatIf = process.env['BENCH_PACE_SQL']
let migrated = false
const naiveMain = new URL('./naive-server.ts', import.meta.url).pathname
const pg = await startTestPostgres({ durable: true, statements: true, embedded: true })
const sql = postgres(pg.url, { max: 1, onnotice: () => {} })
const [backend] = await sql<Array<{ pid: number }>>`select pg_backend_pid() as pid`
const postmaster = backend && isNamed(backend.pid, 'postgres') ? parentOf(backend.pid) : null
const postgresPids = postmaster ? () => withChildren(postmaster) : null
const summary: string[] = []
const figures: Figure[] = []

/** Starts the tis server (profiled with BENCH_CPU_PROFILE=1) and runs `body` against it. */
async function withTis<T>(
  label: string,
  body: (url: string, token: string, pids: () => number[]) => Promise<T>,
): Promise<T> {
  const dir = profiling ? mkdtempSync(join(tmpdir(), 'tis-prof-')) : null
  const args = dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`, SERVER_MAIN] : [SERVER_MAIN]
  const env: Record<string, string> = { ...serverEnv, DATABASE_URL: pg.url, ...extraEnv }
  const server = await startNode(args, env)
  // SERVICE_PROJECTION=worker: the projection in a `tis worker` process beside the server.
  const worker =
    env['SERVICE_PROJECTION'] === 'worker'
      ? spawn(process.execPath, [join(SERVER_MAIN, '..', 'cli.js'), 'worker'], {
          env: { ...process.env, ...env },
          stdio: 'ignore',
        })
      : null
  try {
    if (whatIf && !migrated) await sql.unsafe(whatIf)
    migrated = true
    const { token } = await createProjectWithKey(server.url, ADMIN_TOKEN, label)
    const pids = () => [server.child.pid, worker?.pid].filter((p): p is number => p !== undefined)
    return await body(server.url, token, pids)
  } finally {
    await server.stop()
    if (worker) {
      const exited = new Promise((resolve) => worker.once('exit', resolve))
      worker.kill('SIGTERM')
      await exited
    }
    if (dir) {
      const profile = summariseProfile(dir)
      if (profile) {
        console.log(`\nserver CPU profile, ${label}: self time by package`)
        console.table(profile.byArea)
        console.log(`server CPU profile, ${label}: self time by function`)
        console.table(profile.byFunction)
      }
      rmSync(dir, { recursive: true, force: true })
    }
  }
}

async function printStatements(label: string, rows: number) {
  console.log(`\nPostgreSQL statements, ${label} (${rows.toLocaleString('en-US')} rows)`)
  console.table(await topStatements(sql, rows))
}

// Single events, 64 connections: the naive server, then tis.
const single: Record<string, unknown>[] = []
if (plans.includes('single')) await measureSingle()

async function measureSingle() {
  const naive = await startNode(['--import', 'tsx', naiveMain], { DATABASE_URL: pg.url })
  try {
    const r = await load(naive.url, {}, { meters: meters(naive.child.pid, postgresPids) })
    const cpu = runCpu(r)
    single.push({
      server: 'naive: Hono + one INSERT',
      'req/s': Math.round(r.requests.average),
      'p99 ms': r.latency.p99,
      'server µs/req': cpu.server,
      'pg µs/req': cpu.postgres,
      'all µs/req': cpu.server + (cpu.postgres ?? 0),
    })
  } finally {
    await naive.stop()
  }
  await withTis('single events', async (url, token, pids) => {
    await resetStatements(sql)
    const r = await load(
      url,
      { authorization: `Bearer ${token}` },
      { meters: [cpuMeter(pids), ...(postgresPids ? [cpuMeter(postgresPids)] : [])] },
    )
    // The projection behind the load is the record's cost too: metered until it caught up.
    const after = [cpuMeter(pids), ...(postgresPids ? [cpuMeter(postgresPids)] : [])]
    for (const meter of after) meter.start()
    const catchUp = await caughtUp(url)
    const [serverAfter = 0, pgAfter] = after.map((meter) => meter.stop())
    const cpu = runCpu(r)
    const per = (seconds: number) => microsPerRequest(seconds, r.requests.total)
    const serverUs = cpu.server + per(serverAfter)
    const pgUs = cpu.postgres === null || pgAfter === undefined ? null : cpu.postgres + per(pgAfter)
    single.push({
      server: 'tis',
      'req/s': Math.round(r.requests.average),
      'p99 ms': r.latency.p99,
      'server µs/req': serverUs,
      'pg µs/req': pgUs,
      'all µs/req': serverUs + (pgUs ?? 0),
      'catch-up ms': Math.round(catchUp),
    })
    await printStatements('single events (incl. the 2 s warm-up)', r['2xx'])
  })
  console.log('\nsingle events, 64 connections')
  console.table(single)
  const [naiveRow, tisRow] = single as Array<{ 'all µs/req': number; 'p99 ms': number }>
  if (naiveRow && tisRow) {
    figures.push({
      what: 'single events: processor µs per request, server + PostgreSQL',
      value: tisRow['all µs/req'],
      unit: 'µs/req',
      baseline: 'naive: Hono + one INSERT',
      baselineValue: naiveRow['all µs/req'],
      note: `p99 ${tisRow['p99 ms']} ms against ${naiveRow['p99 ms']} ms`,
    })
  }
}

// Single events at 80% of the sustained rate: the projection's lag.
if (plans.includes('lag')) {
  const run = await withTis('projection lag', (url, token) =>
    runLag(url, token, createPostgresStore(sql)),
  )
  console.log(`\nsingle events at ${LAG_SHARE * 100}% of the sustained rate for ${LAG_SECONDS} s`)
  console.table([run])
  const lag = `lag p50 ${run.lagP50} / p99 ${run.lagP99} / max ${run.lagMax} s`
  const behind = `${run.behind} of ${run.samples} samples behind (at most ${run.maxRecords} records)`
  figures.push({
    what: `projection lag p99, single events at ${LAG_SHARE * 100}% of the sustained rate for ${LAG_SECONDS} s`,
    value: run.lagP99,
    unit: 's',
    baseline: 'issue 35: p99 at most',
    baselineValue: 1,
    note: `${lag}; ${behind}; ${run.achieved} of ${run.target} req/s (sustained ${run.sustained}: ${run.peak} req/s sent, ${run.peakCatchUpMs} ms catch-up), p99 ${run.p99Ms} ms; final catch-up ${run.catchUpMs} ms`,
  })
  summary.push(
    `projection lag at ${run.achieved} req/s (target ${run.target}, ${LAG_SHARE * 100}% of ${run.sustained} sustained: ${run.peak} req/s sent, ${run.peakCatchUpMs} ms catch-up) for ${LAG_SECONDS} s: ${lag}; ${behind}; request p99 ${run.p99Ms} ms, ${run.errors} errors; final catch-up ${run.catchUpMs} ms`,
  )
}

// Batches: 1 and 5,000 fingerprints.
const batches: Record<string, unknown>[] = []
for (const groups of plans.includes('batches') ? [1, 5_000] : []) {
  const label = `batches, ${groups.toLocaleString('en-US')} fingerprint${groups === 1 ? '' : 's'}`
  await withTis(label, async (url, token, pids) => {
    const breakdown = postmaster ? postgresBreakdown(postmaster) : null
    const run = await runBatches(
      url,
      token,
      groups,
      [cpuMeter(pids), ...(postgresPids ? [cpuMeter(postgresPids)] : [])],
      async () => {
        await resetStatements(sql)
        breakdown?.start()
      },
      async () => {
        // The load's statements, then the catch-up's alone (the projection with nothing else).
        await printStatements(`${label}, while sending`, 0)
        await resetStatements(sql)
      },
    )
    if (breakdown) {
      const seconds = breakdown.stop()
      console.log(`\nPostgreSQL processor µs per row by process, ${label}`)
      console.table(
        Object.fromEntries(
          Object.entries(seconds).map(([kind, s]) => [kind, Math.round((s * 1e6) / run.rows)]),
        ),
      )
    }
    batches.push({ load: label, ...run })
    figures.push({
      what: `sustained rows/s (sending + catch-up), ${label}`,
      value: run.sustained,
      unit: 'rows/s',
      baseline: 'rows/s acknowledged',
      baselineValue: run.acknowledged,
      note: `caught up ${run.catchUpMs} ms after the last batch; server ${run.serverUs} + PostgreSQL ${run.postgresUs} µs/row`,
    })
    summary.push(
      `${label}: ${run.sustained} rows/s sustained (${run.acknowledged} acknowledged, caught up ${run.catchUpMs} ms after the last batch); server ${run.serverUs} + PostgreSQL ${run.postgresUs} µs/row`,
    )
    await printStatements(`${label}, catching up after the last batch`, run.rows)
  })
}
if (plans.includes('batches')) {
  // The embedded store's figures beside PostgreSQL's (`BENCH_PACE_EMBEDDED_BATCHES=0` skips them).
  if (process.env['BENCH_PACE_EMBEDDED_BATCHES'] !== '0') {
    for (const run of await measureEmbeddedBatches([1, 5_000])) {
      batches.push({ ...run })
      summary.push(
        `${run.load}: ${run.sustained} rows/s sustained (${run.acknowledged} acknowledged, caught up ${run.catchUpMs} ms after the last batch); server with PGlite ${run.serverUs} µs/row`,
      )
    }
  }
  console.log(`\nbatches of 1,000 lines, ${IN_FLIGHT} in flight, ${PACE_DURATION} s`)
  console.table(batches)
}
if (plans.includes('embedded')) {
  console.log('\nembedded store (PGlite), single events, 64 connections: resident memory')
  const embedded = await measureEmbedded(['128MB', '16MB'])
  console.table(embedded)
  const [before, now] = embedded as Array<Record<string, number>>
  if (before && now) {
    figures.push({
      what: 'embedded server resident memory under the single-event load',
      value: now['max MiB under load'] ?? Number.NaN,
      unit: 'MiB',
      baseline: 'shared_buffers 128MB (PGlite default)',
      baselineValue: before['max MiB under load'] ?? Number.NaN,
      note: `idle: ${now['idle MiB (first start)']} MiB first start, ${now['idle MiB (reopened)']} MiB reopened`,
    })
  }
}
console.log(summary.join('\n'))
saveFigures('pace', figures)
await sql.end()
await pg.stop()
process.exit(0)
