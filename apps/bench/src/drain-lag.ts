import { randomUUID } from 'node:crypto'
import autocannon from 'autocannon'
import type { DrainClickHouse } from './drain-clickhouse'

/** Options of {@link measureLag}. */
export interface LagOptions {
  /** The server, draining in its own process (`SERVICE_ANALYTICS_DRAIN=true`). */
  readonly url: string
  /** Bearer token of the project's API key. */
  readonly token: string
  /** The request body autocannon sends. */
  readonly body: string
  /** Requests per second across all connections (autocannon `overallRate`). */
  readonly rate: number
  readonly seconds: number
  readonly clickhouse: DrainClickHouse
  /** One marker event every this many ms. @default 500 */
  readonly markerEveryMs?: number
  /** ClickHouse is asked for the pending markers every this many ms. @default 50 */
  readonly pollEveryMs?: number
  /** A marker not visible this long after its 201 counts as lost. @default 30000 */
  readonly giveUpMs?: number
}

/** Accept-to-visible lag of the markers, and what the load achieved. */
export interface LagResult {
  /** Lags in ms of the markers that became visible, ascending. */
  readonly lags: readonly number[]
  /** Markers acknowledged with 201 but never seen in ClickHouse within `giveUpMs`. */
  readonly lost: number
  /** Markers the server did not acknowledge with 201. */
  readonly markerErrors: number
  /** 2xx per second of the load (markers not counted). */
  readonly acceptedPerSecond: number
  /** Non-2xx answers, errors and timeouts of the load. */
  readonly failed: number
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/**
 * Drives `rate` req/s of `POST /api/v1/ingest_events` for `seconds` and meanwhile sends a marker
 * event (its own request, a unique message) every `markerEveryMs`; one poller asks ClickHouse for
 * all pending marker ids every `pollEveryMs`. Lag = first poll that sees the id − the 201.
 */
export async function measureLag(options: LagOptions): Promise<LagResult> {
  const markerEvery = options.markerEveryMs ?? 500
  const pollEvery = options.pollEveryMs ?? 50
  const giveUp = options.giveUpMs ?? 30_000
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${options.token}` }
  const pending = new Map<string, number>()
  const lags: number[] = []
  let lost = 0
  let markerErrors = 0
  let sending = true
  let markersOut = true

  const sendMarker = async () => {
    const body = JSON.stringify({
      event: { event_type: 'log', level: 'info', message: `drain-bench marker ${randomUUID()}` },
    })
    try {
      const res = await fetch(`${options.url}/api/v1/ingest_events`, {
        method: 'POST',
        headers,
        body,
      })
      const accepted = performance.now()
      const json = (await res.json()) as { id?: unknown }
      if (res.status !== 201 || typeof json.id !== 'string') markerErrors += 1
      else pending.set(json.id, accepted)
    } catch {
      markerErrors += 1
    }
  }

  const markers = (async () => {
    const inFlight: Promise<void>[] = []
    while (sending) {
      inFlight.push(sendMarker())
      await sleep(markerEvery)
    }
    await Promise.all(inFlight)
  })()

  const poller = (async () => {
    while (markersOut || pending.size > 0) {
      const asked = performance.now()
      if (pending.size > 0) {
        const seen = await options.clickhouse.visible([...pending.keys()])
        const now = performance.now()
        for (const [id, accepted] of pending) {
          if (seen.has(id)) {
            lags.push(now - accepted)
            pending.delete(id)
          } else if (now - accepted > giveUp) {
            lost += 1
            pending.delete(id)
          }
        }
      }
      await sleep(Math.max(0, pollEvery - (performance.now() - asked)))
    }
  })()

  const result = await autocannon({
    url: `${options.url}/api/v1/ingest_events`,
    method: 'POST',
    connections: Math.max(10, Math.ceil(options.rate / 20)),
    overallRate: options.rate,
    duration: options.seconds,
    headers,
    body: options.body,
  })
  sending = false
  await markers
  markersOut = false
  await poller
  return {
    lags: lags.sort((a, b) => a - b),
    lost,
    markerErrors,
    acceptedPerSecond: result['2xx'] / options.seconds,
    failed: result.non2xx + result.errors + result.timeouts,
  }
}
