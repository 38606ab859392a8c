import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'
import { BENCH_EVENT_BODY as body } from './bench-event'
import type { DrainClickHouse } from './drain-clickhouse'
import { startWorker } from './drain-worker'
import type { RunningServer } from './processes'

// One drain round of the drain bench: fill the analytics outbox over HTTP, wait for the
// projection, then time `tis worker`s draining it into ClickHouse.

/** Events each drain round sends. */
export const EVENTS = Number(process.env['BENCH_DRAIN_EVENTS'] ?? 60_000)
const serverCli = join(
  fileURLToPath(new URL('../../..', import.meta.url)),
  'apps/server/dist/cli.js',
)

/** A count, rounded, with thousands separators. */
export const fmt = (n: number) => Math.round(n).toLocaleString('en-US')
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

async function queueDepth(url: string): Promise<number> {
  const res = await fetch(`${url}/health/analytics_store`)
  const json = (await res.json()) as { queue?: { depth?: number } | null }
  const depth = json.queue?.depth
  if (typeof depth !== 'number') throw new Error(`no queue depth: ${JSON.stringify(json)}`)
  return depth
}

/** Polls readiness until the projection has caught up with what was accepted. */
async function untilProjected(url: string) {
  const deadline = performance.now() + 300_000
  let json: { projection?: { records?: number } } = {}
  while (performance.now() < deadline) {
    const res = await fetch(`${url}/health/ready`)
    json = (await res.json()) as typeof json
    if (json.projection?.records === 0) return
    await sleep(200)
  }
  throw new Error(`the projection did not catch up in 300 s: ${JSON.stringify(json)}`)
}

/** Polls until the outbox is empty and ClickHouse holds `rows` rows; ms it took. */
export async function untilDrained(
  url: string,
  ch: DrainClickHouse,
  rows: number,
  onSample?: (rows: number) => void,
) {
  const timeoutMs = 120_000
  const deadline = performance.now() + timeoutMs
  while (performance.now() < deadline) {
    const [depth, counts] = await Promise.all([queueDepth(url), ch.counts()])
    onSample?.(counts.rows)
    if (depth === 0 && counts.rows >= rows) return { at: performance.now(), counts }
    await sleep(100)
  }
  const counts = await ch.counts()
  throw new Error(
    `not drained in ${timeoutMs / 1_000} s: outbox ${await queueDepth(url)}, ClickHouse ${counts.rows}/${rows} rows`,
  )
}

export interface DrainRound {
  readonly rowsPerSecond: number
  readonly note: string
}

/** Fills the outbox with `EVENTS` events over HTTP, then times `workers` `tis worker`s. */
export async function drainRound(
  server: RunningServer,
  token: string,
  ch: DrainClickHouse,
  workers: number,
  env: Record<string, string>,
): Promise<DrainRound> {
  const before = await ch.counts()
  const fill = await autocannon({
    url: `${server.url}/api/v1/ingest_events`,
    method: 'POST',
    connections: 100,
    amount: EVENTS,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body,
  })
  const accepted = fill['2xx']
  // The export follows the projection: time the drain of projected rows only.
  await untilProjected(server.url)
  const depth = await queueDepth(server.url)
  const started = await Promise.all(
    Array.from({ length: workers }, () => startWorker(serverCli, env)),
  )
  try {
    const t0 = Math.min(...started.map((w) => w.startedAt))
    // When each batch became visible: where the time goes between batches.
    const steps: string[] = []
    let seen = before.rows
    const { at, counts } = await untilDrained(server.url, ch, before.rows + accepted, (n) => {
      if (n === seen) return
      steps.push(`+${fmt(n - seen)} at ${((performance.now() - t0) / 1_000).toFixed(1)} s`)
      seen = n
    })
    const seconds = (at - t0) / 1_000
    const added = counts.rows - before.rows
    const doubled = counts.rows - counts.ids
    const note =
      `${workers} worker(s): ${fmt(accepted)} accepted (${fill.non2xx + fill.errors + fill.timeouts} failed) ` +
      `at ${fmt(fill.requests.average)} req/s, outbox depth ${fmt(depth)}; drained in ${seconds.toFixed(2)} s; ` +
      `ClickHouse +${fmt(added)} rows (${steps.join(', ')}), ${doubled} doubled`
    if (depth !== accepted || added !== accepted || doubled !== 0) process.exitCode = 1
    return { rowsPerSecond: accepted / seconds, note }
  } finally {
    await Promise.all(started.map((w) => w.stop()))
  }
}
