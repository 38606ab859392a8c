// `tsx src/index-audit.ts seed <state.json>`: a PostgreSQL holding the read bench's 1 M events,
// kept running until SIGINT/SIGTERM, its URL and projects written to <state.json>, so that every
// EXPLAIN and latency run of the index audit (docs/benchmarks.md) reuses one seeded database.
// `tsx src/index-audit.ts measure <state.json> [name prefix…]`: p50/p95/p99 of the read
// endpoints and issue searches (all, or those whose name starts with a prefix) on a fresh server
// against that database.
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { startTestPostgres } from '@tis/test-utils/postgres'
import postgres from 'postgres'
import { createProjectWithKey } from './management-client'
import { startNode } from './processes'
import { ingestOverHttp } from './read-ingest'
import { type LoadOptions, measure } from './read-load'
import { probes, resolveFixtures } from './read-probes'
import { seed } from './read-seed'
import { resolveSearchFixtures, searchProbes } from './search-probes'

/** What `seed` leaves for `measure` and for psql. */
interface AuditState {
  readonly url: string
  readonly projectId: string
}

const EVENTS = Number(process.env['BENCH_READ_EVENTS'] ?? 1_000_000)
const ADMIN_TOKEN = `tis_user_${'r'.repeat(48)}`
const serverMain = fileURLToPath(new URL('../../server/dist/main.js', import.meta.url))
const serverEnv = (url: string) => ({
  DATABASE_URL: url,
  SERVICE_BOOTSTRAP_ADMIN_TOKEN: ADMIN_TOKEN,
  SERVICE_ADMIN_EMAILS: 'bench@localhost',
  SERVICE_PUBLIC_API_RATE_LIMIT_STORE: 'none',
  SERVICE_LOG_LEVEL: 'warn',
})
const load: LoadOptions = {
  connections: 1,
  duration: Number(process.env['BENCH_READ_DURATION'] ?? 3),
  warmup: Number(process.env['BENCH_READ_WARMUP'] ?? 1),
  headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
}

async function seedAndWait(statePath: string) {
  const pg = await startTestPostgres({ embedded: true })
  const server = await startNode([serverMain], serverEnv(pg.url))
  try {
    const main = await createProjectWithKey(server.url, ADMIN_TOKEN, 'bench-reads')
    const other = await createProjectWithKey(server.url, ADMIN_TOKEN, 'bench-reads-other')
    await ingestOverHttp(server.url, main.token, 40)
    await ingestOverHttp(server.url, other.token, 5)
    await server.stop()
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
    console.table(timings)
    const state: AuditState = { url: pg.url, projectId: main.projectId }
    writeFileSync(statePath, JSON.stringify(state))
    console.log(`seeded: ${JSON.stringify(state)}`)
  } catch (error) {
    await server.stop()
    await pg.stop()
    throw error
  }
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve)
    process.once('SIGTERM', resolve)
  })
  await pg.stop()
}

async function measureEndpoints(statePath: string, prefixes: readonly string[]) {
  const state = JSON.parse(readFileSync(statePath, 'utf8')) as AuditState
  const server = await startNode([serverMain], serverEnv(state.url))
  const sql = postgres(state.url, { max: 1, onnotice: () => {} })
  try {
    const fixtures = await resolveFixtures(sql, server.url, state.projectId, load.headers)
    const users = await resolveSearchFixtures(sql, state.projectId)
    const all = [...probes(state.projectId, fixtures), ...searchProbes(state.projectId, users)]
    const rows = []
    for (const probe of all) {
      if (prefixes.length > 0 && !prefixes.some((p) => probe.name.startsWith(p))) continue
      rows.push(await measure(server.url, probe, load))
    }
    console.table(rows)
  } finally {
    await sql.end()
    await server.stop()
  }
}

const [mode, statePath = '/tmp/index-audit.json', ...rest] = process.argv.slice(2)
if (mode === 'seed') await seedAndWait(statePath)
else if (mode === 'measure') await measureEndpoints(statePath, rest)
else throw new Error('usage: index-audit.ts seed|measure <state.json> [name prefix…]')
