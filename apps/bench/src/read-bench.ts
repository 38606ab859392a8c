// `pnpm --filter @tis/bench run bench:reads`: p50/p99 and req/s of every read endpoint of the
// reference server on PostgreSQL holding 1 million events (issue 5: each p50 under 50 ms), next
// to a no-op Hono handler answering a GET with the same load, in the same run.
import { fileURLToPath } from 'node:url'
import { startTestPostgres } from '@tis/test-utils/postgres'
import postgres from 'postgres'
import { createProjectWithKey } from './management-client'
import { startNode } from './processes'
import { ingestOverHttp } from './read-ingest'
import { type LoadOptions, measure, type ProbeResult } from './read-load'
import { probes, resolveFixtures } from './read-probes'
import { seed, tableSizes } from './read-seed'

const EVENTS = Number(process.env['BENCH_READ_EVENTS'] ?? 1_000_000)
const ADMIN_TOKEN = `tis_user_${'r'.repeat(48)}`
const serverMain = fileURLToPath(new URL('../../server/dist/main.js', import.meta.url))
const noopMain = fileURLToPath(new URL('./noop-server.ts', import.meta.url))
const load: LoadOptions = {
  connections: Number(process.env['BENCH_READ_CONNECTIONS'] ?? 4),
  duration: Number(process.env['BENCH_READ_DURATION'] ?? 3),
  warmup: Number(process.env['BENCH_READ_WARMUP'] ?? 1),
  headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
}
const serverEnv = {
  SERVICE_BOOTSTRAP_ADMIN_TOKEN: ADMIN_TOKEN,
  SERVICE_ADMIN_EMAILS: 'bench@localhost',
  SERVICE_PUBLIC_API_RATE_LIMIT_STORE: 'none',
  SERVICE_LOG_LEVEL: 'warn',
}

async function main() {
  const rows: ProbeResult[] = []
  const noop = await startNode(['--import', 'tsx', noopMain], {})
  try {
    rows.push({ ...(await measure(noop.url, { name: '', path: '/health' }, load)) })
  } finally {
    await noop.stop()
  }
  const baseline = { ...rows[0]!, endpoint: 'no-op Hono GET (baseline)', 'p50 < 50 ms': '—' }
  rows[0] = baseline

  // Not durable: fsync only slows the bulk load, and reads do not wait for it.
  const pg = await startTestPostgres()
  const env = { ...serverEnv, DATABASE_URL: pg.url }
  let server = await startNode([serverMain], env)
  const sql = postgres(pg.url, { max: 1, onnotice: () => {} })
  try {
    const main = await createProjectWithKey(server.url, ADMIN_TOKEN, 'bench-reads')
    const other = await createProjectWithKey(server.url, ADMIN_TOKEN, 'bench-reads-other')
    const sent = await ingestOverHttp(server.url, main.token, 40)
    await ingestOverHttp(server.url, other.token, 5)

    const started = performance.now()
    const timings = await seed(sql, [
      {
        projectId: main.projectId,
        shape: { tag: 'main', events: EVENTS, issues: 2_000, spans: EVENTS / 5 },
      },
      {
        projectId: other.projectId,
        shape: { tag: 'other', events: EVENTS / 10, issues: 200, spans: EVENTS / 50 },
      },
    ])
    const seconds = (performance.now() - started) / 1000
    // A fresh server: no connection keeps a plan made while the tables were nearly empty.
    await server.stop()
    server = await startNode([serverMain], env)

    const fixtures = await resolveFixtures(sql, server.url, main.projectId, load.headers)
    for (const probe of probes(main.projectId, fixtures)) {
      rows.push(await measure(server.url, probe, load))
    }

    console.log(`\n${sent} events ingested over HTTP, then bulk-seeded in ${seconds.toFixed(1)} s:`)
    console.table(Object.fromEntries(Object.entries(timings).map(([k, v]) => [k, v.toFixed(1)])))
    console.table(await tableSizes(sql))
    console.log(
      `\nRead API, ${load.connections} connections, ${load.warmup} s warm-up + ${load.duration} s per endpoint, load generator on the same machine\n`,
    )
    console.table(rows)
    const over = rows.filter((r) => r['p50 < 50 ms'] === 'OVER').map((r) => r.endpoint)
    console.log(over.length ? `p50 over 50 ms: ${over.join(', ')}` : 'every p50 under 50 ms')
    if (rows.some((r) => r['non-2xx'] > 0)) process.exitCode = 1
  } finally {
    await sql.end()
    await server.stop()
    await pg.stop()
  }
}

await main()
