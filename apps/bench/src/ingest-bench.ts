// `pnpm bench`: accepted events/s and p50/p99 latency of POST /api/v1/ingest_events on the
// reference server (PGlite and PostgreSQL, durable 201s), each next to a no-op Hono handler and
// a naive INSERT-per-request server measured in the same run on the same machine; one
// fingerprint (an error storm) against 5,000; batches of 1,000 lines; how fast the projection
// catches up behind acceptance, and its lag at half the peak rate. Afterwards every 201 is
// checked against the projected store.

import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startTestPostgres } from '@tis/test-utils/postgres'
import autocannon from 'autocannon'
import postgres from 'postgres'
import { type CpuMeter, cpuMeter, isNamed, microsPerRequest, parentOf, withChildren } from './cpu'
import { createProjectWithKey } from './management-client'
import { type RunningServer, startNode } from './processes'
import { type Figure, peakRssMiB, saveFigures } from './results'

const DURATION = Number(process.env['BENCH_DURATION'] ?? 10)
const CONNECTIONS = Number(process.env['BENCH_CONNECTIONS'] ?? 64)
/** Seconds of the projection-lag run at half the peak rate. */
const LAG_SECONDS = Number(process.env['BENCH_LAG_SECONDS'] ?? 120)
/** Distinct fingerprints of the "many groups" runs. */
const FINGERPRINTS = 5_000
const ADMIN_TOKEN = `tis_user_${'b'.repeat(48)}`
const root = fileURLToPath(new URL('../../..', import.meta.url))
const serverMain = join(root, 'apps/server/dist/main.js')
const noopMain = fileURLToPath(new URL('./noop-server.ts', import.meta.url))
const naiveMain = fileURLToPath(new URL('./naive-server.ts', import.meta.url))
/** Envelopes per request of the batch run. */
const BATCH_SIZE = Number(process.env['BENCH_BATCH_SIZE'] ?? 1000)

const body = JSON.stringify({
  event: {
    event_type: 'error',
    message: "TypeError: Cannot read properties of undefined (reading 'id')\n    at handler",
    level: 'error',
    environment: 'production',
    release: 'api@1.42.0',
    trace_id: '4bf92f3577b34da6a3ce929d0e0e4736',
    transaction_name: 'GET /orders/:id',
    context: {
      exception: { exception_class: 'TypeError' },
      request: { method: 'GET', url: 'https://api.acme.test/orders/17', route: '/orders/:id' },
      tags: { region: 'eu-west-1' },
    },
  },
})

interface Row {
  handler: string
  'req/s': number
  'p50 ms': number
  'p99 ms': number
  '2xx': number
  errors: number
  'vs no-op': string
  /** Processor µs per request of the HTTP server process. */
  'server µs/req'?: number
  /** Processor µs per request of PostgreSQL (postmaster and backends). */
  'pg µs/req'?: number
}

/** Processor µs per request of a measured run: the server's and PostgreSQL's. */
interface RunCpu {
  readonly server: number
  readonly postgres: number | null
}

/** One NDJSON batch of BATCH_SIZE copies of the event, each with a fresh event_id. */
function batchBody(): string {
  const event = (JSON.parse(body) as { event: Record<string, unknown> }).event
  return Array.from({ length: BATCH_SIZE }, () =>
    JSON.stringify({ event: { ...event, event_id: randomUUID() } }),
  ).join('\n')
}

/** POST /api/v1/ingest_events/batch with a new body (new event ids) per request. */
async function loadBatches(url: string, headers: Record<string, string>) {
  const run = (duration: number) =>
    autocannon({
      url: `${url}/api/v1/ingest_events/batch`,
      method: 'POST',
      connections: Math.min(CONNECTIONS, 8),
      duration,
      headers: { 'content-type': 'application/x-ndjson', ...headers },
      requests: [
        {
          setupRequest: (request) => ({ ...request, body: batchBody() }),
        },
      ],
    })
  await run(2)
  return run(DURATION)
}

/** The bench event with fingerprint `n` of {@link FINGERPRINTS}. */
function fingerprinted(n: number): string {
  const event = (JSON.parse(body) as { event: Record<string, unknown> }).event
  return JSON.stringify({ event: { ...event, fingerprint: `bench-group-${n}` } })
}

/** Load options: `groups` distinct fingerprints (1: the same event every time). */
interface LoadOptions {
  readonly groups?: number
  /** Requests per second over all connections (the lag run); unset: as fast as answered. */
  readonly rate?: number
  readonly duration?: number
  readonly warmUp?: boolean
  /** Started after the warm-up, stopped after the measured run. */
  readonly meters?: readonly CpuMeter[]
}

async function load(
  url: string,
  headers: Record<string, string>,
  options: LoadOptions = {},
): Promise<autocannon.Result> {
  const groups = options.groups ?? 1
  const bodies = groups === 1 ? [body] : Array.from({ length: groups }, (_, n) => fingerprinted(n))
  let next = 0
  const run = (duration: number) =>
    autocannon({
      url: `${url}/api/v1/ingest_events`,
      method: 'POST',
      connections: CONNECTIONS,
      duration,
      ...(options.rate ? { overallRate: options.rate } : {}),
      headers: { 'content-type': 'application/json', ...headers },
      ...(groups === 1
        ? { body }
        : {
            requests: [
              { setupRequest: (request) => ({ ...request, body: bodies[next++ % groups] }) },
            ],
          }),
    })
  if (options.warmUp !== false) await run(2) // warm-up: JIT, connection pools, caches
  for (const meter of options.meters ?? []) meter.start()
  const result = await run(options.duration ?? DURATION)
  const used = (options.meters ?? []).map((meter) => meter.stop())
  cpuOf.set(result, used)
  return result
}

/** Processor seconds each meter of a `load` used during its measured run. */
const cpuOf = new WeakMap<autocannon.Result, number[]>()

/** The meters of a server process and, when known, of PostgreSQL. */
function meters(serverPid: number | undefined, postgres: (() => number[]) | null): CpuMeter[] {
  return [cpuMeter(() => (serverPid ? [serverPid] : [])), ...(postgres ? [cpuMeter(postgres)] : [])]
}

/** µs per request of the run's meters (as `meters` made them). */
function runCpu(result: autocannon.Result): RunCpu {
  const [server = Number.NaN, postgres] = cpuOf.get(result) ?? []
  const requests = result.requests.total
  return {
    server: microsPerRequest(server, requests),
    postgres: postgres === undefined ? null : microsPerRequest(postgres, requests),
  }
}

/** The projection lag `GET /health/ready` reports: records not projected yet and seconds behind. */
async function projectionLag(url: string): Promise<{ records: number; seconds: number }> {
  const res = await fetch(`${url}/health/ready`)
  const ready = (await res.json()) as { projection?: { records: number; seconds: number } }
  return ready.projection ?? { records: 0, seconds: 0 }
}

/** Waits until the projection caught up; resolves how long that took, in ms. */
async function caughtUp(url: string, timeoutMs = 600_000): Promise<number> {
  const started = performance.now()
  while (performance.now() - started < timeoutMs) {
    if ((await projectionLag(url)).records === 0) return performance.now() - started
    await new Promise((r) => setTimeout(r, 50))
  }
  throw new Error('the projection did not catch up')
}

const serverEnv = {
  SERVICE_BOOTSTRAP_ADMIN_TOKEN: ADMIN_TOKEN,
  SERVICE_ADMIN_EMAILS: 'bench@localhost',
  SERVICE_PUBLIC_API_RATE_LIMIT_REQUESTS: '1000000000',
  SERVICE_LOG_LEVEL: 'warn',
}

function row(handler: string, r: autocannon.Result, baseline?: number): Row {
  const cpu = cpuOf.has(r) ? runCpu(r) : undefined
  return {
    handler,
    'req/s': Math.round(r.requests.average),
    'p50 ms': r.latency.p50,
    'p99 ms': r.latency.p99,
    '2xx': r['2xx'],
    errors: r.errors + r.non2xx + r.timeouts,
    'vs no-op': baseline ? `${((r.requests.average / baseline) * 100).toFixed(0)}%` : '100%',
    ...(cpu ? { 'server µs/req': cpu.server } : {}),
    ...(cpu?.postgres != null ? { 'pg µs/req': cpu.postgres } : {}),
  }
}

interface TisRun {
  row: Row
  lost: number
  result: autocannon.Result
  rssMiB: number | null
  /** Time the projection took to catch up after the load stopped, in ms. */
  catchUpMs: number
}

async function measureTis(
  name: string,
  env: Record<string, string>,
  countRows: (projectId: string, server: RunningServer) => Promise<number>,
  baseline: number,
  options: LoadOptions = {},
  postgresPids: (() => number[]) | null = null,
): Promise<TisRun> {
  const server = await startNode([serverMain], { ...serverEnv, ...env })
  try {
    const { token, projectId } = await createProjectWithKey(server.url, ADMIN_TOKEN)
    const result = await load(
      server.url,
      { authorization: `Bearer ${token}` },
      { ...options, meters: meters(server.child.pid, postgresPids) },
    )
    const catchUpMs = await caughtUp(server.url)
    const rssMiB = peakRssMiB(server.child.pid)
    const stored = await countRows(projectId, server)
    // Every 201 of the warm-up and the measured run must be projected (events and issues).
    return {
      row: row(name, result, baseline),
      lost: Math.max(0, result['2xx'] - stored),
      result,
      rssMiB,
      catchUpMs,
    }
  } finally {
    await server.stop()
  }
}

/** The naive insert-per-request server on PostgreSQL (`DATABASE_URL`) or PGlite. */
async function measureNaive(
  name: string,
  env: Record<string, string>,
  baseline: number,
  postgresPids: (() => number[]) | null = null,
) {
  const naive = await startNode(['--import', 'tsx', naiveMain], env)
  try {
    const result = await load(naive.url, {}, { meters: meters(naive.child.pid, postgresPids) })
    return { row: row(name, result, baseline), result }
  } finally {
    await naive.stop()
  }
}

const latency = (r: autocannon.Result) => `p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms`

/**
 * Batch ingest, BATCH_SIZE envelopes per request, every one a new row: rows/s acknowledged,
 * and rows/s projected from the first request until the projection caught up.
 */
async function measureBatches(
  databaseUrl: string,
  countEvents: (projectId: string) => Promise<number>,
  notes: string[],
  rows: Row[],
): Promise<Figure[]> {
  const server = await startNode([serverMain], {
    ...serverEnv,
    DATABASE_URL: databaseUrl,
    SERVICE_PUBLIC_API_RATE_LIMIT_STORE: 'none',
  })
  try {
    const { token, projectId } = await createProjectWithKey(server.url, ADMIN_TOKEN)
    const started = performance.now()
    const batches = await loadBatches(server.url, { authorization: `Bearer ${token}` })
    const loadEnded = performance.now()
    const catchUpMs = await caughtUp(server.url)
    const projectedMs = loadEnded - started + catchUpMs
    const rowsPerSecond = Math.round((batches['2xx'] * BATCH_SIZE) / DURATION)
    const stored = await countEvents(projectId)
    const projectedPerSecond = Math.round(stored / (projectedMs / 1000))
    notes.push(
      `PostgreSQL batches: ${Math.max(0, batches['2xx'] * BATCH_SIZE - stored)} acknowledged rows of the measured run missing (stored ${stored} incl. warm-up); projection caught up ${Math.round(catchUpMs)} ms after the load`,
    )
    rows.push({
      handler: `tis batch ingest (${BATCH_SIZE}/request), PostgreSQL`,
      'req/s': Math.round(batches.requests.average),
      'p50 ms': batches.latency.p50,
      'p99 ms': batches.latency.p99,
      '2xx': batches['2xx'],
      errors: batches.errors + batches.non2xx + batches.timeouts,
      'vs no-op': `${rowsPerSecond} rows/s`,
    })
    return [
      {
        what: `batch ingest rows/s acknowledged (${BATCH_SIZE} per request), PostgreSQL`,
        value: rowsPerSecond,
        unit: 'rows/s',
        note: `p50 ${batches.latency.p50} ms, p99 ${batches.latency.p99} ms per batch`,
      },
      {
        what: 'projection rows/s behind batch ingest, PostgreSQL',
        value: projectedPerSecond,
        unit: 'rows/s',
        baseline: 'batch rows/s acknowledged',
        baselineValue: rowsPerSecond,
        note: `${stored} rows projected in ${(projectedMs / 1000).toFixed(1)} s (caught up ${(catchUpMs / 1000).toFixed(1)} s after the load)`,
      },
    ]
  } finally {
    await server.stop()
  }
}

/**
 * Single events at `rate` req/s (half the measured peak) for LAG_SECONDS: the projection lag
 * (`GET /health/ready`: age of the oldest record not projected yet) sampled twice a second; its
 * p99, and the first and last quarter's means (a growing lag is a projection that falls behind).
 */
async function measureLag(databaseUrl: string, rate: number, summary: string[]): Promise<Figure[]> {
  const server = await startNode([serverMain], { ...serverEnv, DATABASE_URL: databaseUrl })
  try {
    const { token } = await createProjectWithKey(server.url, ADMIN_TOKEN)
    const samples: number[] = []
    let sampling = true
    const sampler = (async () => {
      while (sampling) {
        samples.push((await projectionLag(server.url)).seconds)
        await new Promise((r) => setTimeout(r, 500))
      }
    })()
    const result = await load(
      server.url,
      { authorization: `Bearer ${token}` },
      { rate: Math.round(rate), duration: LAG_SECONDS, warmUp: false },
    )
    sampling = false
    await sampler
    const sorted = [...samples].sort((a, b) => a - b)
    const p99 = sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] ?? 0
    const quarter = Math.max(1, Math.floor(samples.length / 4))
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length)
    const first = mean(samples.slice(0, quarter))
    const last = mean(samples.slice(-quarter))
    summary.push(
      `projection lag at ${Math.round(result.requests.average)} req/s for ${LAG_SECONDS} s: p99 ${p99.toFixed(2)} s, max ${(sorted.at(-1) ?? 0).toFixed(2)} s, first quarter mean ${first.toFixed(2)} s, last quarter ${last.toFixed(2)} s`,
    )
    return [
      {
        what: `projection lag p99 at half the peak rate (${Math.round(result.requests.average)} req/s, ${LAG_SECONDS} s), PostgreSQL`,
        value: Math.round(p99 * 1000) / 1000,
        unit: 's',
        note: `first quarter mean ${first.toFixed(2)} s, last quarter ${last.toFixed(2)} s; ingest ${latency(result)}`,
      },
    ]
  } finally {
    await server.stop()
  }
}

/**
 * What one request costs in processor time: the server's against the no-op's, PostgreSQL's
 * against the naive server's, and both together. Steadier than rates on a shared machine.
 */
function cpuFigures(
  tis: autocannon.Result,
  naive: autocannon.Result,
  noop: autocannon.Result,
): Figure[] {
  const t = runCpu(tis)
  const n = runCpu(naive)
  const figures: Figure[] = [
    {
      what: 'server processor µs per request, tis on PostgreSQL',
      value: t.server,
      unit: 'µs',
      baseline: 'no-op Hono handler',
      baselineValue: runCpu(noop).server,
      note: 'the tis server includes its in-process projection',
    },
  ]
  if (t.postgres !== null && n.postgres !== null) {
    figures.push(
      {
        what: 'PostgreSQL processor µs per request, tis',
        value: t.postgres,
        unit: 'µs',
        baseline: 'naive INSERT per request',
        baselineValue: n.postgres,
        note: 'tis: the append, the projection and the rate-limit counters',
      },
      {
        what: 'server + PostgreSQL processor µs per request, tis',
        value: t.server + t.postgres,
        unit: 'µs',
        baseline: 'naive INSERT per request',
        baselineValue: n.server + n.postgres,
      },
    )
  }
  return figures
}

async function main() {
  const rows: Row[] = []
  const notes: string[] = []
  const summary: string[] = []

  const noop = await startNode(['--import', 'tsx', noopMain], {})
  const baseline = await load(noop.url, {}, { meters: meters(noop.child.pid, null) })
  await noop.stop()
  rows.push(row('no-op Hono handler (baseline)', baseline))
  const base = baseline.requests.average
  const figures: Figure[] = []
  const naiveDir = mkdtempSync(join(tmpdir(), 'tis-bench-naive-'))
  let naivePglite: Awaited<ReturnType<typeof measureNaive>>
  try {
    naivePglite = await measureNaive(
      'naive INSERT per request, PGlite',
      { NAIVE_DATA_DIR: naiveDir },
      base,
    )
  } finally {
    rmSync(naiveDir, { recursive: true, force: true })
  }
  rows.push(naivePglite.row)

  const dataDir = mkdtempSync(join(tmpdir(), 'tis-bench-pglite-'))
  try {
    const pglite = await measureTis(
      'tis on PGlite (embedded)',
      { SERVICE_DATA_DIR: dataDir },
      async (projectId, server) => {
        await server.stop()
        const { PGlite } = await import('@electric-sql/pglite')
        const db = new PGlite(dataDir)
        const r = await db.query<{ n: number }>(
          'select count(*)::int as n from events where project_id = $1',
          [projectId],
        )
        await db.close()
        return r.rows[0]?.n ?? 0
      },
      base,
    )
    rows.push(pglite.row)
    notes.push(`PGlite: ${pglite.lost} acknowledged events missing from the store`)
    figures.push(
      {
        what: 'ingest events/s, tis on PGlite',
        value: Math.round(pglite.result.requests.average),
        unit: 'req/s',
        baseline: 'no-op Hono handler',
        baselineValue: Math.round(base),
        note: latency(pglite.result),
      },
      {
        what: 'ingest events/s, tis on PGlite',
        value: Math.round(pglite.result.requests.average),
        unit: 'req/s',
        baseline: 'naive INSERT per request, PGlite',
        baselineValue: Math.round(naivePglite.result.requests.average),
        note: `naive: ${latency(naivePglite.result)}`,
      },
      {
        what: 'server peak RSS, tis on PGlite under load',
        value: pglite.rssMiB ?? Number.NaN,
        unit: 'MiB',
      },
    )
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }

  // Full durability (fsync, synchronous commit): a 201 must mean committed to disk.
  const pg = await startTestPostgres({ durable: true })
  try {
    const sql = postgres(pg.url, { max: 1 })
    const countEvents = async (projectId: string) => {
      const [r] = await sql<
        Array<{ n: number }>
      >`select count(*)::int as n from events where project_id = ${projectId}`
      return r?.n ?? 0
    }
    // PostgreSQL's processes on this machine: the postmaster (the parent of this connection's
    // backend) and its children. None for a server elsewhere (TEST_DATABASE_URL).
    const [backend] = await sql<Array<{ pid: number }>>`select pg_backend_pid() as pid`
    const postmaster = backend && isNamed(backend.pid, 'postgres') ? parentOf(backend.pid) : null
    const postgresPids = postmaster ? () => withChildren(postmaster) : null
    const naivePg = await measureNaive(
      'naive INSERT per request, PostgreSQL',
      { DATABASE_URL: pg.url },
      base,
      postgresPids,
    )
    rows.push(naivePg.row)
    // One fingerprint (an error storm: one hot issue) against 5,000, and rate limiting off
    // (nothing counted) against on (every request counted in the shared PostgreSQL counters,
    // under a cap far above the load). The runs alternate so drift on a shared machine hits
    // each alike.
    const plans = [
      ['1 fingerprint', {}, { groups: 1 }],
      [`${FINGERPRINTS.toLocaleString('en-US')} fingerprints`, {}, { groups: FINGERPRINTS }],
      ['1 fingerprint, rate limiting off', { SERVICE_PUBLIC_API_RATE_LIMIT_STORE: 'none' }, {}],
    ] as const
    const runs: Record<string, TisRun[]> = {}
    for (let round = 1; round <= 2; round++) {
      for (const [plan, env, options] of plans) {
        const run = await measureTis(
          `tis on PostgreSQL, ${plan} #${round}`,
          { DATABASE_URL: pg.url, ...env },
          countEvents,
          base,
          options,
          postgresPids,
        )
        rows.push(run.row)
        notes.push(
          `PostgreSQL (${plan} #${round}): ${run.lost} acknowledged events missing from the store; projection caught up ${Math.round(run.catchUpMs)} ms after the load`,
        )
        runs[plan] = [...(runs[plan] ?? []), run]
      }
    }
    const total = (plan: string) => (runs[plan] ?? []).reduce((n, r) => n + r.row['req/s'], 0)
    const [one, many, off] = plans.map(([plan]) => total(plan))
    const best = [...(runs[plans[0][0]] ?? [])].sort(
      (a, b) => b.result.requests.average - a.result.requests.average,
    )[0]!
    figures.push(
      {
        what: 'ingest events/s, tis on PostgreSQL',
        value: Math.round(best.result.requests.average),
        unit: 'req/s',
        baseline: 'no-op Hono handler',
        baselineValue: Math.round(base),
        note: latency(best.result),
      },
      {
        what: 'ingest events/s, tis on PostgreSQL',
        value: Math.round(best.result.requests.average),
        unit: 'req/s',
        baseline: 'naive INSERT per request, PostgreSQL',
        baselineValue: Math.round(naivePg.result.requests.average),
        note: `naive: ${latency(naivePg.result)}`,
      },
      ...cpuFigures(best.result, naivePg.result, baseline),
      {
        what: 'ingest p99, tis on PostgreSQL',
        value: best.result.latency.p99,
        unit: 'ms',
        baseline: 'no-op Hono handler p99',
        baselineValue: baseline.latency.p99,
      },
      {
        what: `ingest, ${FINGERPRINTS.toLocaleString('en-US')} fingerprints vs 1, PostgreSQL`,
        value: many ?? 0,
        unit: 'req/s (2 runs)',
        baseline: '1 fingerprint',
        baselineValue: one ?? 0,
      },
      {
        what: 'rate limiting on (shared counters) vs off, PostgreSQL',
        value: one ?? 0,
        unit: 'req/s (2 runs)',
        baseline: 'rate limiting off',
        baselineValue: off ?? 0,
      },
      {
        what: 'server peak RSS, tis on PostgreSQL under load',
        value: Math.max(
          ...Object.values(runs)
            .flat()
            .map((r) => r.rssMiB ?? 0),
        ),
        unit: 'MiB',
      },
    )
    figures.push(...(await measureBatches(pg.url, countEvents, notes, rows)))
    figures.push(...(await measureLag(pg.url, best.result.requests.average / 2, summary)))
    summary.push(
      `rate limiting on/off on PostgreSQL (sum of two alternating runs each): ${one} / ${off} req/s = ${(((one ?? 0) / (off ?? 1)) * 100).toFixed(1)}%`,
      `${FINGERPRINTS} fingerprints / 1 fingerprint: ${many} / ${one} req/s = ${(((many ?? 0) / (one ?? 1)) * 100).toFixed(1)}%`,
    )
    await sql.end()
  } finally {
    await pg.stop()
  }

  console.log(
    `\nPOST /api/v1/ingest_events — ${CONNECTIONS} connections, ${DURATION} s per run, load generator on the same machine\n`,
  )
  console.table(rows)
  for (const note of notes) console.log(note)
  for (const line of summary) console.log(line)
  saveFigures('1-ingest', figures)
  if (notes.some((n) => !/: 0 acknowledged/.test(n))) {
    process.exitCode = 1
  }
}

await main()
