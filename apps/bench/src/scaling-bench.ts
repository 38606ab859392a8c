// `pnpm --filter @tis/bench run bench:scaling`: 1, 2 and 3 server processes on one PostgreSQL —
// throughput per added process (every 201 checked against the store) and whether the shared rate
// limit stays exact across them. docs/scaling.md extrapolates from these figures.
import { fileURLToPath } from 'node:url'
import { startTestPostgres } from '@tis/test-utils/postgres'
import autocannon from 'autocannon'
import postgres from 'postgres'
import { createProjectWithKey } from './management-client'
import { type RunningServer, startNode } from './processes'
import { type Figure, saveFigures } from './results'

const DURATION = Number(process.env['BENCH_DURATION'] ?? 10)
const CONNECTIONS = Number(process.env['BENCH_CONNECTIONS'] ?? 100)
const PROCESSES = [1, 2, 3]
/** The cap of the exactness run, per key and hour, and the requests thrown at it. */
const CAP = 3_000
const BURST = 4_500
const ADMIN_TOKEN = `tis_user_${'s'.repeat(48)}`
const serverMain = fileURLToPath(new URL('../../server/dist/main.js', import.meta.url))
const body = JSON.stringify({
  event: { event_type: 'log', message: 'scaling', level: 'info', environment: 'bench' },
})

async function startServers(n: number, env: Record<string, string>): Promise<RunningServer[]> {
  const servers: RunningServer[] = []
  for (let i = 0; i < n; i++) {
    servers.push(
      await startNode([serverMain], {
        SERVICE_BOOTSTRAP_ADMIN_TOKEN: ADMIN_TOKEN,
        SERVICE_ADMIN_EMAILS: 'bench@localhost',
        SERVICE_LOG_LEVEL: 'warn',
        ...env,
      }),
    )
  }
  return servers
}

/** Load spread evenly over the servers (CONNECTIONS in total), run at the same time. */
async function loadAll(servers: RunningServer[], token: string, duration: number) {
  const results = await Promise.all(
    servers.map((s) =>
      autocannon({
        url: `${s.url}/api/v1/ingest_events`,
        method: 'POST',
        connections: Math.max(1, Math.round(CONNECTIONS / servers.length)),
        duration,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body,
      }),
    ),
  )
  return {
    perSecond: results.reduce((n, r) => n + r.requests.average, 0),
    ok: results.reduce((n, r) => n + r['2xx'], 0),
    failed: results.reduce((n, r) => n + r.non2xx + r.errors + r.timeouts, 0),
    p99: Math.max(...results.map((r) => r.latency.p99)),
  }
}

async function main() {
  const pg = await startTestPostgres({ durable: true })
  const sql = postgres(pg.url, { max: 1, onnotice: () => {} })
  const count = async (projectId: string) =>
    (
      await sql<
        { n: number }[]
      >`select count(*)::int as n from events where project_id = ${projectId}`
    )[0]?.n ?? 0
  const rows: Record<string, string | number>[] = []
  const figures: Figure[] = []
  let single = 0
  try {
    for (const n of PROCESSES) {
      const servers = await startServers(n, {
        DATABASE_URL: pg.url,
        SERVICE_PUBLIC_API_RATE_LIMIT_REQUESTS: '1000000000',
      })
      try {
        const { token, projectId } = await createProjectWithKey(
          servers[0]!.url,
          ADMIN_TOKEN,
          `scale-${n}`,
        )
        await loadAll(servers, token, 2) // warm-up
        const before = await count(projectId)
        const run = await loadAll(servers, token, DURATION)
        const stored = (await count(projectId)) - before
        if (n === 1) single = run.perSecond
        rows.push({
          processes: n,
          'req/s': Math.round(run.perSecond),
          'vs 1 process': `${((run.perSecond / single) * 100).toFixed(0)}%`,
          'p99 ms': run.p99,
          '201s': run.ok,
          stored,
          'non-2xx': run.failed,
        })
        figures.push({
          what: `ingest events/s, ${n} server process${n > 1 ? 'es' : ''} on one PostgreSQL`,
          value: Math.round(run.perSecond),
          unit: 'req/s',
          baseline: '1 process',
          baselineValue: Math.round(single),
          note: `p99 ${run.p99} ms, ${run.failed} non-2xx`,
        })
        if (stored < run.ok) process.exitCode = 1
      } finally {
        await Promise.all(servers.map((s) => s.stop()))
      }
    }

    // Exactness: BURST requests over three processes against a cap of CAP per key and hour.
    const servers = await startServers(3, {
      DATABASE_URL: pg.url,
      SERVICE_PUBLIC_API_RATE_LIMIT_REQUESTS: String(CAP),
      SERVICE_PUBLIC_API_RATE_LIMIT_PERIOD_SECONDS: '3600',
    })
    try {
      const { token, projectId } = await createProjectWithKey(servers[0]!.url, ADMIN_TOKEN, 'cap')
      const statuses = new Map<number, number>()
      let next = 0
      const worker = async () => {
        for (;;) {
          const i = next++
          if (i >= BURST) return
          const server = servers[i % servers.length]!
          const r = await fetch(`${server.url}/api/v1/ingest_events`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
            body,
          })
          await r.text()
          statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1)
        }
      }
      await Promise.all(Array.from({ length: 60 }, worker))
      const accepted = statuses.get(201) ?? 0
      const stored = await count(projectId)
      console.log(
        `\nrate limit across 3 processes: cap ${CAP}, ${BURST} requests → ${accepted} × 201, ${statuses.get(429) ?? 0} × 429, ${stored} stored (${accepted === CAP && stored === CAP ? 'exact' : 'NOT EXACT'})`,
      )
      figures.push({
        what: `shared rate limit over 3 processes (cap ${CAP}, ${BURST} requests)`,
        value: accepted,
        unit: '201s',
        baseline: 'cap',
        baselineValue: CAP,
        note: `${stored} stored, ${statuses.get(429) ?? 0} × 429`,
      })
      if (accepted !== CAP || stored !== CAP) process.exitCode = 1
    } finally {
      await Promise.all(servers.map((s) => s.stop()))
    }
  } finally {
    await sql.end()
    await pg.stop()
  }
  console.log(
    `\nPOST /api/v1/ingest_events — ${CONNECTIONS} connections spread over the processes, ${DURATION} s, durable PostgreSQL, all on this machine\n`,
  )
  console.table(rows)
  saveFigures('4-scaling', figures)
}

await main()
