// `pnpm bench`: accepted events/s and p50/p99 latency of POST /api/v1/ingest_events on the
// reference server (PGlite and PostgreSQL, durable 201s), each next to a no-op Hono handler
// measured in the same run on the same machine. Afterwards every 201 is checked against the store.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startTestPostgres } from '@tis/test-utils/postgres'
import autocannon from 'autocannon'
import postgres from 'postgres'
import { createProjectWithKey } from './management-client'
import { type RunningServer, startNode } from './processes'

const DURATION = Number(process.env['BENCH_DURATION'] ?? 10)
const CONNECTIONS = Number(process.env['BENCH_CONNECTIONS'] ?? 100)
const ADMIN_TOKEN = `tis_user_${'b'.repeat(48)}`
const root = fileURLToPath(new URL('../../..', import.meta.url))
const serverMain = join(root, 'apps/server/dist/main.js')
const noopMain = fileURLToPath(new URL('./noop-server.ts', import.meta.url))

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
): Promise<{ row: Row; lost: number }> {
  const server = await startNode([serverMain], { ...serverEnv, ...env })
  try {
    const { token, projectId } = await createProjectWithKey(server.url, ADMIN_TOKEN)
    const result = await load(server.url, { authorization: `Bearer ${token}` })
    const stored = await countRows(projectId, server)
    // Every 201 of the warm-up and the measured run must be in the store.
    return { row: row(name, result, baseline), lost: Math.max(0, result['2xx'] - stored) }
  } finally {
    await server.stop()
  }
}

async function main() {
  const rows: Row[] = []
  const notes: string[] = []
  const summary: string[] = []

  const noop = await startNode(['--import', 'tsx', noopMain], {})
  const baseline = await load(noop.url, {})
  await noop.stop()
  rows.push(row('no-op Hono handler (baseline)', baseline))
  const base = baseline.requests.average

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
  if (notes.some((n) => !/: 0 acknowledged/.test(n))) {
    process.exitCode = 1
  }
}

await main()
