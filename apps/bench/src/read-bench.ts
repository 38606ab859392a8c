// `pnpm --filter @tis/bench run bench:reads`: p50/p95/p99 and req/s of every read endpoint of
// the reference server on PostgreSQL holding 1 million events (each p50 under 50 ms) and of
// every shape of the issue search (each p95 under 100 ms), next to a no-op Hono handler
// answering a GET with the same load, in the same run.
import { fileURLToPath } from 'node:url'
import { startTestPostgres } from '@tis/test-utils/postgres'
import postgres from 'postgres'
import { createProjectWithKey } from './management-client'
import { startNode } from './processes'
import { ingestOverHttp } from './read-ingest'
import { type LoadOptions, measure, type ProbeResult } from './read-load'
import { probes, resolveFixtures } from './read-probes'
import { PROPOSALS } from './read-proposals'
import { seed, tableSizes } from './read-seed'
import { explain, type RunSql, type Statement } from './read-statements'
import { saveFigures } from './results'
import { firstPageSize, resolveSearchFixtures, searchProbes } from './search-probes'
import { reportSearch, type SearchResult } from './search-report'

const EVENTS = Number(process.env['BENCH_READ_EVENTS'] ?? 1_000_000)
/** Also measure the proposed index (docs/benchmarks.md): builds it, explains and measures again. */
const WITH_PROPOSALS = process.env['BENCH_READ_PROPOSALS'] === '1'
/** `search`: only the issue search's shapes; `endpoints`: only the other reads. Both by default. */
const ONLY = process.env['BENCH_READ_ONLY']
const ADMIN_TOKEN = `tis_user_${'r'.repeat(48)}`
const serverMain = fileURLToPath(new URL('../../server/dist/main.js', import.meta.url))
const noopMain = fileURLToPath(new URL('./noop-server.ts', import.meta.url))
const load: LoadOptions = {
  connections: Number(process.env['BENCH_READ_CONNECTIONS'] ?? 1),
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

/**
 * Each proposed index (docs/benchmarks.md): the statements it serves explained before and after
 * it is built (then `VACUUM ANALYZE`, so index-only scans see the visibility map), and its
 * endpoints measured again.
 */
async function measureProposals(
  sql: postgres.Sql,
  url: string,
  projectId: string,
  rows: ProbeResult[],
) {
  const all = probes(projectId, await resolveFixtures(sql, url, projectId, load.headers))
  const run: RunSql = (text, params) => sql.unsafe(text, params as never)
  const print = async (label: string, statement: Statement) =>
    console.log(
      `\n-- ${label}\n${statement.text}\n-- parameters: ${JSON.stringify(statement.params)}\n${await explain(run, statement)}`,
    )
  for (const proposal of PROPOSALS) {
    const show = async (label: string) => {
      for (const statement of await proposal.explain(projectId)) await print(label, statement)
    }
    await show(`before: ${proposal.name}`)
    const started = performance.now()
    for (const statement of proposal.apply) await sql.unsafe(statement)
    await sql`vacuum analyze events`
    const seconds = ((performance.now() - started) / 1000).toFixed(1)
    console.log(`\n${proposal.name}: built in ${seconds} s`)
    await show(`after: ${proposal.name}`)
    for (const statement of (await proposal.variants?.(projectId)) ?? []) {
      await print(`variant with ${proposal.name}`, statement)
    }
    for (const probe of all.filter((p) => proposal.probes.some((n) => p.name.startsWith(n)))) {
      const r = await measure(url, probe, load)
      rows.push({ ...r, endpoint: `${probe.name} + ${proposal.name}` })
    }
  }
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
    const timings = await seed(pg.url, [
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
    for (const probe of ONLY === 'search' ? [] : probes(main.projectId, fixtures)) {
      rows.push(await measure(server.url, probe, load))
    }
    const searches: SearchResult[] = []
    if (ONLY !== 'endpoints') {
      const users = await resolveSearchFixtures(sql, main.projectId)
      for (const probe of searchProbes(main.projectId, users)) {
        const page = await firstPageSize(server.url, probe, load.headers)
        searches.push({ ...(await measure(server.url, probe, load)), 'page 1': page })
      }
    }

    const measured = rows.length
    const sizes = await tableSizes(sql)
    if (WITH_PROPOSALS) await measureProposals(sql, server.url, main.projectId, rows)

    console.log(`\n${sent} events ingested over HTTP, then bulk-seeded in ${seconds.toFixed(1)} s:`)
    console.table(Object.fromEntries(Object.entries(timings).map(([k, v]) => [k, v.toFixed(1)])))
    console.table(sizes)
    console.log(
      `\nRead API, ${load.connections} connections, ${load.warmup} s warm-up + ${load.duration} s per endpoint, load generator on the same machine\n`,
    )
    console.table(rows)
    const over = rows
      .slice(0, measured)
      .filter((r) => r['p50 < 50 ms'] === 'OVER')
      .map((r) => r.endpoint)
    console.log(over.length ? `p50 over 50 ms: ${over.join(', ')}` : 'every p50 under 50 ms')
    reportSearch(searches, baseline, EVENTS)
    if ([...rows, ...searches].some((r) => r['non-2xx'] > 0)) process.exitCode = 1
    const endpoints = rows.slice(1, measured)
    const p50 = (r: ProbeResult) => (typeof r['p50 ms'] === 'number' ? r['p50 ms'] : 1e9)
    const worst = [...endpoints].sort((a, b) => p50(b) - p50(a))[0]
    if (worst) {
      saveFigures('2-reads', [
        {
          what: `read API with ${EVENTS.toLocaleString('en-US')} events: slowest p50 of ${endpoints.length} endpoints (${worst.endpoint})`,
          value: p50(worst),
          unit: 'ms',
          baseline: 'target',
          baselineValue: 50,
          note: `${endpoints.length - over.length}/${endpoints.length} under 50 ms; no-op GET ${baseline['req/s']} req/s`,
        },
      ])
    }
  } finally {
    await sql.end()
    await server.stop()
    await pg.stop()
  }
}

await main()
