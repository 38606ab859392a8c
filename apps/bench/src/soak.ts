// `pnpm --filter @tis/bench run soak` (not part of CI or `pnpm bench`): finds the peak ingest rate
// of the server on durable PostgreSQL, then holds 70% of it for SOAK_MINUTES (default 10),
// printing latency, errors and the server's resident memory minute by minute. Flat memory, flat
// latency and zero errors is a pass.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { startTestPostgres } from '@tis/test-utils/postgres'
import autocannon from 'autocannon'
import { createProjectWithKey } from './management-client'
import { startNode } from './processes'

const MINUTES = Number(process.env['SOAK_MINUTES'] ?? 10)
const SHARE = Number(process.env['SOAK_SHARE'] ?? 0.7)
const ADMIN_TOKEN = `tis_user_${'k'.repeat(48)}`
const serverMain = fileURLToPath(new URL('../../server/dist/main.js', import.meta.url))
const body = JSON.stringify({
  event: { event_type: 'error', message: 'soak\n at x', level: 'error', environment: 'soak' },
})

function rssMiB(pid: number | undefined): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  return Math.round(Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024)
}

const pg = await startTestPostgres({ durable: true })
const server = await startNode([serverMain], {
  DATABASE_URL: pg.url,
  SERVICE_BOOTSTRAP_ADMIN_TOKEN: ADMIN_TOKEN,
  SERVICE_ADMIN_EMAILS: 'soak@localhost',
  SERVICE_PUBLIC_API_RATE_LIMIT_REQUESTS: '1000000000',
  SERVICE_LOG_LEVEL: 'warn',
})
try {
  const { token } = await createProjectWithKey(server.url, ADMIN_TOKEN, 'soak')
  const options = {
    url: `${server.url}/api/v1/ingest_events`,
    method: 'POST' as const,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body,
  }
  const peak = await autocannon({ ...options, connections: 100, duration: 10 })
  const rate = Math.round(peak.requests.average * SHARE)
  console.log(
    `peak ${Math.round(peak.requests.average)} req/s; soaking at ${rate} req/s for ${MINUTES} min`,
  )
  const rows: Record<string, number>[] = []
  for (let minute = 1; minute <= MINUTES; minute++) {
    const r = await autocannon({ ...options, connections: 50, overallRate: rate, duration: 60 })
    rows.push({
      minute,
      'req/s': Math.round(r.requests.average),
      'p50 ms': r.latency.p50,
      'p99 ms': r.latency.p99,
      errors: r.errors + r.non2xx + r.timeouts,
      'rss MiB': rssMiB(server.child.pid),
    })
    console.table(rows.slice(-1))
  }
  console.table(rows)
  const errors = rows.reduce((n, r) => n + (r['errors'] ?? 0), 0)
  const rss = rows.map((r) => r['rss MiB'] ?? 0)
  console.log(
    `errors ${errors}; rss first ${rss[0]} MiB, last ${rss.at(-1)} MiB, max ${Math.max(...rss)} MiB`,
  )
  if (errors > 0) process.exitCode = 1
} finally {
  await server.stop()
  await pg.stop()
}
