// Render times of every dashboard page with 1 million events (PGlite, the server's default
// store), seeded as the read benchmark seeds (the store's append and projection). Not part of
// the test run (it takes minutes):
//   pnpm --filter @tis/bench bench:render [events]
import { createDashboard } from '@tis/dashboard'
import type { PostgresIngestStore } from '@tis/storage-postgres'
import {
  ADMIN_TOKEN,
  createClient as createApi,
  sessionsOf,
  startPgliteHarness,
} from '@tis/test-utils/server'
import { median } from './quantile'
import { seedDatabase } from './read-seed'
import { explain as explainStatement, type RunSql, statementOf } from './read-statements'
import { TRANSACTION_NAMES } from './seed-shape'

/** The seeding sends far more than the harness's default 25 requests per key. */
const HARNESS_ENV = { SERVICE_PUBLIC_API_RATE_LIMIT_REQUESTS: '100000' }

const EVENTS = Number(process.argv[2] ?? 1_000_000)
const harness = await startPgliteHarness(HARNESS_ENV)
const started = performance.now()
const lap = (what: string) =>
  console.log(`${what}: ${((performance.now() - started) / 1000).toFixed(1)} s`)
try {
  const { projectId } = await createApi(harness.url).projectWithKey()
  const shape = { tag: 'main', events: EVENTS, issues: 2_000, spans: EVENTS / 5 }
  // The server's own store: the seeding appends to its ingest log and projects it.
  const store = harness.server.store as PostgresIngestStore
  await seedDatabase({ store, query: harness.query }, [{ projectId, shape }])
  lap('seeded')
  const [{ n }] = (await harness.query<{ n: number }>('select count(*)::int as n from events')) as [
    { n: number },
  ]
  const issue = (
    await harness.query<{ id: string }>(
      `select id from issues where project_id = $1 and status = 'unresolved' order by last_seen_at desc limit 1`,
      [projectId],
    )
  )[0]!.id
  const trace = (
    await harness.query<{ trace_id: string }>(
      `select trace_id from spans where project_id = $1 and parent_span_id is null order by started_at desc limit 1`,
      [projectId],
    )
  )[0]!.trace_id
  // The plans of the two chart reads at this size (the inbox page's issues, the default window).
  const inbox = await harness.query<{ id: string }>(
    `select id from issues where project_id = $1 and status = 'unresolved'
      order by last_seen_at desc, id desc limit 50`,
    [projectId],
  )
  const day = new Date(Date.now() - 86_400_000)
  const run: RunSql = (text, params) => harness.query(text, [...params])
  const explain = async (what: string, read: (s: PostgresIngestStore) => Promise<unknown>) => {
    const plan = await explainStatement(
      run,
      await statementOf(read),
      'analyze, costs off, buffers off',
    )
    console.log(
      `${what}:\n${plan
        .split('\n')
        .map((line) => `  ${line.slice(0, 200)}`)
        .join('\n')}`,
    )
  }
  const issueIds = inbox.map((r) => r.id)
  await explain('issueActivity (50 issues, 24 h)', (s) =>
    s.issueActivity({ projectId, issueIds, since: day, until: new Date(), intervalSeconds: 3600 }),
  )
  await explain('transactionLatency (all, 24 h)', (s) =>
    s.transactionLatency({ projectId, since: day, until: new Date(), intervalSeconds: 900 }),
  )
  const dashboard = createDashboard({ engine: harness.server.engine })
  // A session signed in through the form, as a browser has it.
  const { cookie } = await sessionsOf((path, init) => dashboard.request(path, init))(ADMIN_TOKEN)
  const pages = [
    '/projects',
    `/projects/${projectId}/issues`,
    `/projects/${projectId}/issues?q=timeout&status=all`,
    `/projects/${projectId}/issues/${issue}`,
    `/projects/${projectId}/activity`,
    `/projects/${projectId}/activity?type=log&level=warning`,
    `/projects/${projectId}/performance`,
    `/projects/${projectId}/performance?name=${encodeURIComponent(TRANSACTION_NAMES[0]!)}`,
    `/projects/${projectId}/inbox-rows`,
    `/projects/${projectId}/traces/${trace}`,
    `/projects/${projectId}/monitors`,
    `/projects/${projectId}/deployments`,
    `/projects/${projectId}/settings`,
  ]
  console.log(`${n.toLocaleString('en-US')} events; median of 5 renders after one warm-up (ms):`)
  for (const path of pages) {
    const times: number[] = []
    for (let i = 0; i < 6; i++) {
      const t = performance.now()
      const res = await dashboard.request(path, { headers: { cookie } })
      await res.text()
      if (res.status !== 200) throw new Error(`${path}: ${res.status}`)
      if (i > 0) times.push(performance.now() - t)
    }
    console.log(
      `| ${path.replace(projectId, ':id').replace(issue, ':issue').replace(trace, ':trace')} | ${median(times).toFixed(1)} |`,
    )
  }
} finally {
  await harness.close()
}
