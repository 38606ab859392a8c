// Acknowledged-ingest load straight through the engine (no HTTP): concurrent loops that each wait
// for their answer before sending the next request, for a fixed time.
import { randomUUID } from 'node:crypto'
import type { IngestApi } from '@tis/ingest'
import { quantile } from './quantile'

/** What one load run acknowledged. */
export interface LoadResult {
  /** Events acknowledged (201, or accepted lines of a 2xx batch). */
  readonly events: number
  readonly eventsPerSecond: number
  /** Answer latency in milliseconds, per request. */
  readonly p50: number
  readonly p99: number
}

const event = (message: string) => ({
  event_type: 'error',
  message,
  level: 'error',
  environment: 'production',
  release: 'api@1.42.0',
  context: { request: { method: 'GET', url: 'https://api.acme.test/orders/17' } },
})

/** Runs `concurrency` loops of `send` for `seconds`; `send` resolves the events it got acked. */
async function run(
  seconds: number,
  concurrency: number,
  send: () => Promise<number>,
): Promise<LoadResult> {
  const latencies: number[] = []
  let events = 0
  const started = performance.now()
  const end = started + seconds * 1000
  const loop = async () => {
    while (performance.now() < end) {
      const t = performance.now()
      const acknowledged = await send()
      events += acknowledged // after the await: `events += await …` would read a stale total
      latencies.push(performance.now() - t)
    }
  }
  await Promise.all(Array.from({ length: concurrency }, loop))
  const elapsed = (performance.now() - started) / 1000
  latencies.sort((a, b) => a - b)
  return {
    events,
    eventsPerSecond: Math.round(events / elapsed),
    p50: Math.round(quantile(latencies, 0.5) * 10) / 10,
    p99: Math.round(quantile(latencies, 0.99) * 10) / 10,
  }
}

/** Single events (`POST /api/v1/ingest_events`), one per request. */
export function singles(
  engine: Pick<IngestApi, 'ingestEvent' | 'ingestEventBatch'>,
  token: string,
  seconds: number,
  concurrency: number,
) {
  const headers = { authorization: `Bearer ${token}` }
  let n = 0
  return run(seconds, concurrency, async () => {
    n += 1
    const res = await engine.ingestEvent({ headers, body: { event: event(`single ${n}`) } })
    return res.status === 201 ? 1 : 0
  })
}

/** NDJSON batches of `size` events (`POST /api/v1/ingest_events/batch`). */
export function batches(
  engine: Pick<IngestApi, 'ingestEvent' | 'ingestEventBatch'>,
  token: string,
  options: { seconds: number; concurrency: number; size: number },
) {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/x-ndjson' }
  return run(options.seconds, options.concurrency, async () => {
    const text = Array.from({ length: options.size }, (_, i) =>
      JSON.stringify({ event: { ...event(`batch line ${i}`), event_id: randomUUID() } }),
    ).join('\n')
    const res = await engine.ingestEventBatch({ headers, text })
    const accepted = (res.body as { accepted?: unknown }).accepted
    return res.status >= 200 && res.status < 300 && typeof accepted === 'number' ? accepted : 0
  })
}
