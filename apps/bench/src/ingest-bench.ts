// `pnpm bench`: accepted events/s and p50/p99 latency of POST /api/v1/ingest_events on the
// reference server (PGlite and PostgreSQL, durable 201s), each next to a no-op Hono handler
// measured in the same run on the same machine. Afterwards every 201 is checked against the store.

import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startTestPostgres } from '@tis/test-utils/postgres'
import autocannon from 'autocannon'
import postgres from 'postgres'
import { createProjectWithKey } from './management-client'
import { type RunningServer, startNode } from './processes'
import { type Figure, peakRssMiB, saveFigures } from './results'

const DURATION = Number(process.env['BENCH_DURATION'] ?? 10)
const CONNECTIONS = Number(process.env['BENCH_CONNECTIONS'] ?? 100)
const ADMIN_TOKEN = `tis_user_${'b'.repeat(48)}`
const root = fileURLToPath(new URL('../../..', import.meta.url))
const serverMain = join(root, 'apps/server/dist/main.js')
const noopMain = fileURLToPath(new URL('./noop-server.ts', import.meta.url))
const naiveMain = fileURLToPath(new URL('./naive-server.ts', import.meta.url))
/** Envelopes per request of the batch run. */
const BATCH_SIZE = 100

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
      connections: Math.min(CONNECTIONS, 10),
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

async function load(url: string, headers: Record<string, string>): Promise<autocannon.Result> {
  const run = (duration: number) =>
    autocannon({
      url: `${url}/api/v1/ingest_events`,
      method: 'POST',
      connections: CONNECTIONS,
      duration,
      headers: { 'content-type': 'application/json', ...headers },
      body,
    })
  await run(2) // warm-up: JIT, connection pools, caches
  return run(DURATION)
}

const serverEnv = {
  SERVICE_BOOTSTRAP_ADMIN_TOKEN: ADMIN_TOKEN,
  SERVICE_ADMIN_EMAILS: 'bench@localhost',
  SERVICE_PUBLIC_API_RATE_LIMIT_REQUESTS: '1000000000',
  SERVICE_LOG_LEVEL: 'warn',
}

function row(handler: string, r: autocannon.Result, baseline?: number): Row {
  return {
    handler,
    'req/s': Math.round(r.requests.average),
    'p50 ms': r.latency.p50,
    'p99 ms': r.latency.p99,
    '2xx': r['2xx'],
    errors: r.errors + r.non2xx + r.timeouts,
    'vs no-op': baseline ? `${((r.requests.average / baseline) * 100).toFixed(0)}%` : '100%',
  }
}

async function measureTis(
  name: string,
  env: Record<string, string>,
  countRows: (projectId: string, server: RunningServer) => Promise<number>,
  baseline: number,
): Promise<{ row: Row; lost: number; result: autocannon.Result; rssMiB: number | null }> {
  const server = await startNode([serverMain], { ...serverEnv, ...env })
  try {
    const { token, projectId } = await createProjectWithKey(server.url, ADMIN_TOKEN)
    const result = await load(server.url, { authorization: `Bearer ${token}` })
    const rssMiB = peakRssMiB(server.child.pid)
    const stored = await countRows(projectId, server)
    // Every 201 of the warm-up and the measured run must be in the store.
    return {
      row: row(name, result, baseline),
      lost: Math.max(0, result['2xx'] - stored),
      result,
      rssMiB,
    }
  } finally {
    await server.stop()
  }
}

/** The naive insert-per-request server on PostgreSQL (`DATABASE_URL`) or PGlite. */
async function measureNaive(name: string, env: Record<string, string>, baseline: number) {
  const naive = await startNode(['--import', 'tsx', naiveMain], env)
  try {
    const result = await load(naive.url, {})
    return { row: row(name, result, baseline), result }
  } finally {
    await naive.stop()
  }
}

const latency = (r: autocannon.Result) => `p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms`

async function main() {
  const rows: Row[] = []
  const notes: string[] = []
  const summary: string[] = []

  const noop = await startNode(['--import', 'tsx', noopMain], {})
  const baseline = await load(noop.url, {})
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
    // Rate limiting off (nothing counted) against on: every request counted in the shared
    // PostgreSQL counters, under a cap far above the load so every request is still accepted.
    // The two alternate (off, on, off, on) so drift on a shared machine hits both alike.
    const naivePg = await measureNaive(
      'naive INSERT per request, PostgreSQL',
      { DATABASE_URL: pg.url },
      base,
    )
    rows.push(naivePg.row)
    const modes = [
      ['off', { SERVICE_PUBLIC_API_RATE_LIMIT_STORE: 'none' }],
      ['on (shared counters)', {}],
    ] as const
    const runs: Record<string, Array<Awaited<ReturnType<typeof measureTis>>>> = {}
    for (let round = 1; round <= 2; round++) {
      for (const [mode, env] of modes) {
        const run = await measureTis(
          `tis on PostgreSQL, rate limiting ${mode} #${round}`,
          { DATABASE_URL: pg.url, ...env },
          countEvents,
          base,
        )
        rows.push(run.row)
        notes.push(
          `PostgreSQL (limiting ${mode} #${round}): ${run.lost} acknowledged events missing from the store`,
        )
        runs[mode] = [...(runs[mode] ?? []), run]
      }
    }
    const total = (mode: string) => (runs[mode] ?? []).reduce((n, r) => n + r.row['req/s'], 0)
    const [off, on] = [total('off'), total('on (shared counters)')]
    const best = [...(runs['on (shared counters)'] ?? [])].sort(
      (a, b) => b.result.requests.average - a.result.requests.average,
    )[0]!
    figures.push(
      {
        what: 'ingest events/s, tis on PostgreSQL (rate limiting on)',
        value: Math.round(best.result.requests.average),
        unit: 'req/s',
        baseline: 'no-op Hono handler',
        baselineValue: Math.round(base),
        note: latency(best.result),
      },
      {
        what: 'ingest events/s, tis on PostgreSQL (rate limiting on)',
        value: Math.round(best.result.requests.average),
        unit: 'req/s',
        baseline: 'naive INSERT per request, PostgreSQL',
        baselineValue: Math.round(naivePg.result.requests.average),
        note: `naive: ${latency(naivePg.result)}`,
      },
      {
        what: 'rate limiting on (shared counters) vs off, PostgreSQL',
        value: on,
        unit: 'req/s (2 runs)',
        baseline: 'rate limiting off',
        baselineValue: off,
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

    // Batch ingest: BATCH_SIZE envelopes per request, every one a new row.
    const server = await startNode([serverMain], {
      ...serverEnv,
      DATABASE_URL: pg.url,
      SERVICE_PUBLIC_API_RATE_LIMIT_STORE: 'none',
    })
    try {
      const { token, projectId } = await createProjectWithKey(server.url, ADMIN_TOKEN)
      const batches = await loadBatches(server.url, { authorization: `Bearer ${token}` })
      const rowsPerSecond = Math.round((batches['2xx'] * BATCH_SIZE) / DURATION)
      const stored = await countEvents(projectId)
      notes.push(
        `PostgreSQL batches: ${Math.max(0, (batches['2xx'] + 0) * BATCH_SIZE - stored)} acknowledged rows of the measured run missing (stored ${stored} incl. warm-up)`,
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
      figures.push({
        what: `batch ingest rows/s (${BATCH_SIZE} per request), PostgreSQL`,
        value: rowsPerSecond,
        unit: 'rows/s',
        baseline: 'single-event ingest, PostgreSQL',
        baselineValue: Math.round(best.result.requests.average),
        note: `p50 ${batches.latency.p50} ms per batch`,
      })
    } finally {
      await server.stop()
    }
    summary.push(
      `rate limiting on/off on PostgreSQL (sum of two alternating runs each): ${on} / ${off} req/s = ${((on / off) * 100).toFixed(1)}%`,
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
