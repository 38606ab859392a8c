// `pnpm --filter @tis/bench bench:sessions` (part of `pnpm bench`): release health's two bars.
// 1. Event ingest with a steady stream of session items beside it (one per five events) within
//    10% of without: one tis server (built, apps/server/dist) on a durable PostgreSQL, Sentry
//    envelopes, plan A (BENCH_SESSIONS_EVENTS error events), plan B (the same events and a
//    session envelope after every fifth) and plan C (the same session items, each in the
//    envelope of every fifth event) in alternating rounds (BENCH_SESSIONS_ROUNDS, 3 each).
//    The bar's figure is server + PostgreSQL processor µs per event, metered from the first
//    request until the projection caught up (sessions-ingest.ts).
// 2. One release's health over 30 days of minute aggregates under 50 ms at p95: a project seeded
//    through the store's append and projection (sessions-seed.ts), then `GET …/releases/:version`
//    and `GET …/releases` one request at a time (BENCH_SESSIONS_READS, 200 each after 20), next
//    to `GET /api/v1/projects/:id` (authentication and routing alone) in the same run.
import { seriesInterval } from '@tis/ingest'
import { startTestPostgres } from '@tis/test-utils/postgres'
import postgres from 'postgres'
import { isNamed, parentOf, withChildren } from './cpu'
import { ADMIN_TOKEN, SERVER_MAIN, serverEnv } from './ingest-servers'
import { createProjectWithKey } from './management-client'
import { startNode } from './processes'
import { explain, statementsOf } from './read-statements'
import { saveFigures } from './results'
import { type Plan, type SessionRun, sessionRun, warmUp } from './sessions-ingest'
import { seedReleaseHealth, timeRead } from './sessions-reads'
import { ingestLines, readVerdict, runRow, sessionFigures } from './sessions-report'
import { HEALTH_DAYS, HEALTH_RELEASE } from './sessions-seed'

const ROUNDS = Number(process.env['BENCH_SESSIONS_ROUNDS'] ?? 3)
const READS = Number(process.env['BENCH_SESSIONS_READS'] ?? 200)
const PLANS: readonly Plan[] = ['A', 'B', 'C']

/** Part 1: the alternating ingest rounds; resolves the runs and whether the store holds them. */
async function measureIngest(): Promise<{ runs: SessionRun[]; checks: string[] }> {
  const pg = await startTestPostgres({ durable: true })
  const sql = postgres(pg.url, { max: 1 })
  const server = await startNode([SERVER_MAIN], { ...serverEnv, DATABASE_URL: pg.url })
  try {
    const project = await createProjectWithKey(server.url, ADMIN_TOKEN, 'sessions ingest')
    if (!project.dsn || !server.child.pid) throw new Error('no DSN or server pid')
    const [backend] = await sql<Array<{ pid: number }>>`select pg_backend_pid() as pid`
    const postmaster = backend && isNamed(backend.pid, 'postgres') ? parentOf(backend.pid) : null
    const target = {
      url: server.url,
      dsn: project.dsn,
      serverPid: server.child.pid,
      postgresPids: postmaster ? () => withChildren(postmaster) : null,
    }
    await warmUp(target)
    const runs: SessionRun[] = []
    for (let round = 1; round <= ROUNDS; round++) {
      for (const plan of PLANS) {
        const run = await sessionRun(target, plan)
        runs.push(run)
        console.log(JSON.stringify(runRow(run, round)))
      }
    }
    const [stored] = await sql<Array<{ events: number; states: number; minutes: number }>>`
      select (select count(*)::int from events where project_id = ${project.projectId}) as events,
        (select count(*)::int from session_states where project_id = ${project.projectId}) as states,
        (select coalesce(sum(healthy + errored + abnormal + crashed), 0)::int from session_minutes
          where project_id = ${project.projectId}) as minutes`
    const acknowledged = runs.reduce((n, r) => n + r.events, 0)
    const checks = [
      (stored?.events ?? 0) >= acknowledged
        ? ''
        : `stored ${stored?.events} events < ${acknowledged} acknowledged`,
      (stored?.states ?? 0) > 0 && (stored?.minutes ?? 0) > 0 ? '' : 'no session was projected',
      runs.some((r) => r.failed > 0) ? 'some requests failed' : '',
    ].filter(Boolean)
    console.log(
      `stored: ${stored?.events} events (≥ ${acknowledged} acknowledged in measured runs), ${stored?.states} session states, ${stored?.minutes} sessions counted in session_minutes`,
    )
    return { runs, checks }
  } finally {
    await server.stop()
    await sql.end()
    await pg.stop()
  }
}

/** EXPLAIN ANALYZE of the statements the detail read sends, with the read's own parameters. */
async function explainDetail(sql: postgres.Sql, projectId: string, since: Date, until: Date) {
  const adoptionSince = new Date(until.getTime() - 86_400_000)
  const window = { projectId, environment: null, since, until, adoptionSince }
  const statements = await statementsOf(async (store) => {
    await store.findRelease({ ...window, version: HEALTH_RELEASE })
    await store.releaseSeries({
      ...window,
      version: HEALTH_RELEASE,
      bucketSeconds: seriesInterval(since, until),
    })
  })
  const run = (text: string, params: readonly unknown[]) => sql.unsafe(text, params as never)
  for (const statement of statements) {
    console.log(`\n${statement.text}\n${await explain(run, statement)}`)
  }
}

/** Part 2: the seeded project and the read percentiles. */
async function measureReads() {
  const pg = await startTestPostgres()
  const env = { ...serverEnv, DATABASE_URL: pg.url, SERVICE_PUBLIC_API_RATE_LIMIT_STORE: 'none' }
  let server = await startNode([SERVER_MAIN], env)
  const sql = postgres(pg.url, { max: 1, onnotice: () => {} })
  try {
    const project = await createProjectWithKey(server.url, ADMIN_TOKEN, 'release health')
    const seeded = await seedReleaseHealth(pg.url, project.projectId)
    console.log('\nseeded rows:', seeded.rows, 'seconds:', seeded.seconds)
    // A fresh server: no connection keeps a plan made while the tables were nearly empty.
    await server.stop()
    server = await startNode([SERVER_MAIN], env)
    const until = new Date()
    const since = new Date(until.getTime() - HEALTH_DAYS * 86_400_000)
    const base = `${server.url}/api/v1/projects/${project.projectId}`
    const o = { headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, requests: READS }
    const window = `since=${since.toISOString()}`
    const release = encodeURIComponent(HEALTH_RELEASE)
    const baseline = await timeRead('GET /projects/:id (baseline)', base, o)
    const detail = await timeRead(
      `GET …/releases/${HEALTH_RELEASE}?${window}`,
      `${base}/releases/${release}?${window}`,
      o,
    )
    const production = await timeRead(
      'GET …/releases/:version, environment=production',
      `${base}/releases/${release}?${window}&environment=production`,
      o,
    )
    const list = await timeRead(`GET …/releases?${window}`, `${base}/releases?${window}`, o)
    const reads = [baseline, detail, production, list]
    console.log(`\nRelease reads, one request at a time, ${READS} measured after 20 (ms):\n`)
    console.table(reads.map((r) => ({ ...r, verdict: r === baseline ? '' : readVerdict(r) })))
    await explainDetail(sql, project.projectId, since, until)
    return { detail, list, baseline, failed: reads.some((r) => r.failed > 0) }
  } finally {
    await server.stop()
    await sql.end()
    await pg.stop()
  }
}

async function main() {
  const { runs, checks } = await measureIngest()
  console.log(
    `\nRelease health ingest — Sentry envelopes, ${runs[0]?.events ?? 0} error events per run; plan B adds a session envelope after every fifth, plan C a session item to every fifth envelope\n`,
  )
  console.table(runs.map((r, i) => runRow(r, Math.floor(i / PLANS.length) + 1)))
  for (const line of ingestLines(runs)) console.log(line)
  for (const check of checks) console.log(`CHECK FAILED: ${check}`)
  const reads = await measureReads()
  saveFigures('8-sessions', sessionFigures(runs, reads))
  // A bar missed is reported; what fails the run is a bench that did not measure what it says.
  if (checks.length > 0 || reads.failed) process.exitCode = 1
}

await main()
