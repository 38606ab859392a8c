// `pnpm --filter @tis/bench bench:scrubbing` (part of `pnpm bench`): "acceptance with scrubbing
// on within 10% of off, for the bench's error event and for a Sentry SDK event with request data
// and breadcrumbs (same run)". One tis server (built, apps/server/dist) on a durable PostgreSQL,
// two projects — default scrubbing, and `PUT …/data_scrubbing {"enabled":false}` — loaded in
// alternating rounds (on, off, then off, on, …) with the same load per body: the bench's native
// error event (`POST /api/v1/ingest_events`) and the Sentry envelope of sentry-request-event.ts
// (`POST /api/<number>/envelope/`), a fresh event id per request. The bar's figure is the
// server's processor time per accepted event (cpu.ts; it includes the in-process projection):
// on ÷ off of the means, with the spread of the rounds. Req/s and PostgreSQL's time are reported
// beside it. BENCH_SCRUBBING_ROUNDS (4) and BENCH_SCRUBBING_SECONDS (6) size the run.
import { startTestPostgres } from '@tis/test-utils/postgres'
import postgres from 'postgres'
import { isNamed, parentOf, withChildren } from './cpu'
import { envelopeBodies, envelopePath, nativeBodies, sentryHeaders } from './envelope-bodies'
import { CONNECTIONS, load, meters } from './ingest-load'
import { ADMIN_TOKEN, SERVER_MAIN, serverEnv } from './ingest-servers'
import { type BenchProject, createProjectWithKey } from './management-client'
import { type RunningServer, startNode } from './processes'
import { caughtUp } from './projection-lag'
import { saveFigures } from './results'
import {
  BODIES,
  type Body,
  type BodyRuns,
  figuresOf,
  type Side,
  scrubbingRun,
  summaryLines,
} from './scrubbing-report'

const ROUNDS = Number(process.env['BENCH_SCRUBBING_ROUNDS'] ?? 4)
const SECONDS = Number(process.env['BENCH_SCRUBBING_SECONDS'] ?? 6)

/** Turns scrubbing off for a project, as its owner would. */
async function disableScrubbing(url: string, projectId: string) {
  const res = await fetch(`${url}/api/v1/projects/${projectId}/data_scrubbing`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ data_scrubbing: { enabled: false } }),
  })
  if (!res.ok) throw new Error(`PUT data_scrubbing: ${res.status} ${await res.text()}`)
}

/** A request maker per body for one project. */
function loaders(server: RunningServer, project: BenchProject, pgPids: (() => number[]) | null) {
  const dsn = project.dsn
  if (!dsn) throw new Error('the project JSON has no dsn')
  const native = nativeBodies()
  const sentry = envelopeBodies(dsn, 'request')
  const metered = () => ({ duration: SECONDS, meters: meters(server.child.pid, pgPids) })
  return {
    bytes: { native: Buffer.byteLength(native()), sentry: Buffer.byteLength(sentry()) },
    native: () =>
      load(
        server.url,
        { authorization: `Bearer ${project.token}` },
        { nextBody: native, ...metered() },
      ),
    sentry: () =>
      load(server.url, sentryHeaders(dsn), {
        path: envelopePath(dsn),
        nextBody: sentry,
        ...metered(),
      }),
  }
}

async function main() {
  const pg = await startTestPostgres({ durable: true })
  const sql = postgres(pg.url, { max: 1 })
  const server = await startNode([SERVER_MAIN], { ...serverEnv, DATABASE_URL: pg.url })
  try {
    const projects: Record<Side, BenchProject> = {
      on: await createProjectWithKey(server.url, ADMIN_TOKEN, 'scrubbing on'),
      off: await createProjectWithKey(server.url, ADMIN_TOKEN, 'scrubbing off'),
    }
    await disableScrubbing(server.url, projects.off.projectId)
    const [backend] = await sql<Array<{ pid: number }>>`select pg_backend_pid() as pid`
    const postmaster = backend && isNamed(backend.pid, 'postgres') ? parentOf(backend.pid) : null
    const pgPids = postmaster ? () => withChildren(postmaster) : null
    const sides = {
      on: loaders(server, projects.on, pgPids),
      off: loaders(server, projects.off, pgPids),
    }
    const runs: Record<Body, BodyRuns> = {
      native: { on: [], off: [] },
      sentry: { on: [], off: [] },
    }
    for (let round = 1; round <= ROUNDS; round++) {
      // Which side goes first alternates, so neither always follows the other's backlog.
      const order: Side[] = round % 2 === 1 ? ['on', 'off'] : ['off', 'on']
      for (const body of BODIES) {
        for (const side of order) {
          runs[body][side].push(scrubbingRun(await sides[side][body]()))
          await caughtUp(server.url)
        }
      }
      console.log(`round ${round} of ${ROUNDS} done`)
    }
    // The two projects store what they claim: no form password on, no scrubbing report off.
    const [stored] = await sql<Array<{ onLeaks: number; off: number; offReports: number }>>`
      select count(*) filter (where project_id = ${projects.on.projectId}
          and payload::text like '%correct horse battery%')::int as "onLeaks",
        count(*) filter (where project_id = ${projects.off.projectId}
          and payload::text like '%correct horse battery%')::int as off,
        count(*) filter (where project_id = ${projects.off.projectId}
          and payload::text like '%"data\\_scrubbing"%')::int as "offReports"
      from events`
    const checks = [
      stored?.onLeaks === 0 ? '' : `scrubbing on stored ${stored?.onLeaks} form passwords`,
      (stored?.off ?? 0) > 0 ? '' : 'scrubbing off stored no form password as sent',
      stored?.offReports === 0
        ? ''
        : `scrubbing off stored ${stored?.offReports} scrubbing reports`,
    ].filter(Boolean)
    const [count] = await sql<Array<{ n: number }>>`select count(*)::int as n from events`
    const all = BODIES.flatMap((b) => [...runs[b].on, ...runs[b].off])
    const refused = all.reduce((n, r) => n + r.refused, 0)
    const measured = all.reduce((n, r) => n + r.accepted, 0)
    const lost = (count?.n ?? 0) < measured
    console.log(
      `\nData scrubbing on vs off — ${CONNECTIONS} connections, ${SECONDS} s per run, load generator on the same machine\n`,
    )
    for (const body of BODIES) {
      for (const line of summaryLines(body, runs[body], sides.on.bytes[body])) console.log(line)
    }
    // Warm-ups are stored too: the store holds at least every event acknowledged in measured runs.
    console.log(
      `stored events ${count?.n ?? 0} ${lost ? '<' : '≥'} acknowledged in measured runs ${measured}; ${refused} refused or failed`,
    )
    for (const check of checks) console.log(`CHECK FAILED: ${check}`)
    saveFigures(
      '7-scrubbing',
      BODIES.flatMap((body) => figuresOf(body, runs[body])),
    )
    // A bar missed is reported (FAIL above, in the figures); what fails the run is a bench that
    // did not measure what it says: refusals, lost events, a project not storing as it should.
    if (checks.length > 0 || refused > 0 || lost) process.exitCode = 1
  } finally {
    await server.stop()
    await sql.end()
    await pg.stop()
  }
}

await main()
