import { randomUUID } from 'node:crypto'
import autocannon from 'autocannon'
import { BENCH_EVENT_BODY } from './bench-event'
import { type CpuMeter, microsPerRequest } from './cpu'
import { caughtUp } from './projection-lag'

// The batch load of the pace bench: BATCH_LINES-line NDJSON batches, IN_FLIGHT at a time, every
// line a new event of one of `groups` fingerprints; measured from the first measured batch until
// the projection has caught up with the last.

/** Lines per batch. */
export const BATCH_LINES = 1000
/** Batches in flight. */
export const IN_FLIGHT = 4
/** Seconds of each measured batch run. */
export const PACE_DURATION = Number(process.env['BENCH_PACE_DURATION'] ?? 20)

/** What one batch run measured. */
export interface BatchRun {
  readonly rows: number
  /** Rows acknowledged per second of sending. */
  readonly acknowledged: number
  /** ms from the last batch's answer until the projection had caught up. */
  readonly catchUpMs: number
  /** Rows per second over sending and catching up. */
  readonly sustained: number
  /** Processor µs per row over the same span: the server's and PostgreSQL's. */
  readonly serverUs: number
  readonly postgresUs: number | null
  readonly errors: number
  readonly p99: number
}

/** A function that makes a fresh batch body, cheaply (string splicing, no JSON per line). */
function batchMaker(groups: number): () => string {
  const event = (JSON.parse(BENCH_EVENT_BODY) as { event: Record<string, unknown> }).event
  const [head, tail] = JSON.stringify({
    event: { ...event, fingerprint: '@fp@', event_id: '@id@' },
  }).split('"@fp@","event_id":"@id@"')
  let n = 0
  return () => {
    const lines: string[] = []
    for (let i = 0; i < BATCH_LINES; i++) {
      lines.push(`${head}"fp-${n++ % groups}","event_id":"${randomUUID()}"${tail}`)
    }
    return lines.join('\n')
  }
}

/**
 * Sends batches for a 2 s warm-up, waits for the projection, then measures `PACE_DURATION`
 * seconds of batches and the catch-up behind them. `meters` are the server's and (when known)
 * PostgreSQL's; `onMeasured` runs right before the measured batches (a statistics reset),
 * `onSent` right after the last one's answer.
 */
export async function runBatches(
  url: string,
  token: string,
  groups: number,
  meters: readonly CpuMeter[],
  onMeasured: () => Promise<void>,
  onSent?: () => Promise<void>,
): Promise<BatchRun> {
  const next = batchMaker(groups)
  const send = (duration: number) =>
    autocannon({
      url: `${url}/api/v1/ingest_events/batch`,
      method: 'POST',
      connections: IN_FLIGHT,
      duration,
      timeout: 60,
      headers: { 'content-type': 'application/x-ndjson', authorization: `Bearer ${token}` },
      requests: [{ setupRequest: (request) => ({ ...request, body: next() }) }],
    })
  await send(2)
  await caughtUp(url)
  await onMeasured()
  for (const meter of meters) meter.start()
  const started = performance.now()
  const result = await send(PACE_DURATION)
  const sent = performance.now()
  await onSent?.()
  const catchUpMs = await caughtUp(url)
  const [server = 0, postgres] = meters.map((meter) => meter.stop())
  const rows = result['2xx'] * BATCH_LINES
  return {
    rows,
    acknowledged: Math.round(rows / ((sent - started) / 1000)),
    catchUpMs: Math.round(catchUpMs),
    sustained: Math.round(rows / ((sent - started + catchUpMs) / 1000)),
    serverUs: microsPerRequest(server, rows),
    postgresUs: postgres === undefined ? null : microsPerRequest(postgres, rows),
    errors: result.errors + result.non2xx + result.timeouts,
    p99: result.latency.p99,
  }
}
