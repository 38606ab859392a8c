import { readLag } from '@tis/ingest'
import type { PostgresIngestStore } from '@tis/storage-postgres'
import { load } from './ingest-load'
import { quantile } from './quantile'

// The lag plan of the pace bench: the sustained single-event rate of one server (64 connections
// as fast as answered, over sending and the projection's catch-up), then single events at
// LAG_SHARE of it for LAG_SECONDS with the projection's lag sampled every SAMPLE_MS.
//
// The lag is read from PostgreSQL, not from `GET /health/ready`: readiness reuses a measurement
// for 1 s, and a reused one reports its oldest record aging on (it may have been projected since)
// and its stale count, so at four samples a second three of four would repeat the first, and a
// catch-up polled through it ends up to 1 s late. The store's own statements over the bench's
// connection measure afresh each time: `projectionLag()` (the statement readiness runs, counting up
// to its cap) turned into seconds by `readLag`, as readiness does, and `pendingTarget()` (a
// one-row backward scan) for "caught up", cheap enough to poll every 50 ms during a backlog.

/** Seconds of single events at LAG_SHARE of the sustained rate. */
export const LAG_SECONDS = Number(process.env['BENCH_PACE_LAG_SECONDS'] ?? 120)
/** Share of the sustained single-event rate sent during the lag run. */
export const LAG_SHARE = 0.8
/** ms between two lag samples. */
const SAMPLE_MS = 250

/** What one lag run measured. */
export interface LagRun {
  /** Single events per second over sending (64 connections, as fast as answered) and catch-up. */
  readonly sustained: number
  /** 2xx per second of sending of the same run, and its catch-up in ms. */
  readonly peak: number
  readonly peakCatchUpMs: number
  /** req/s of the lag run: LAG_SHARE of `sustained`. */
  readonly target: number
  /** 2xx per second the lag run achieved. */
  readonly achieved: number
  /** p99 response time of the lag run, ms (each response's own time). */
  readonly p99Ms: number
  readonly errors: number
  /** Projection lag over the samples, seconds: age of the oldest record not projected yet. */
  readonly lagP50: number
  readonly lagP99: number
  readonly lagMax: number
  readonly samples: number
  /** Samples with at least one record not projected yet. */
  readonly behind: number
  /** Most records behind in one sample (counted up to the store's cap). */
  readonly maxRecords: number
  /** ms from the end of the lag run until the projection had caught up. */
  readonly catchUpMs: number
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Waits until the projection has read everything committed; resolves how long that took, in ms. */
async function caughtUp(store: PostgresIngestStore, timeoutMs = 600_000): Promise<number> {
  const started = performance.now()
  while (performance.now() - started < timeoutMs) {
    if ((await store.pendingTarget()) === null) return performance.now() - started
    await sleep(50)
  }
  throw new Error('the projection did not catch up')
}

/** Samples the projection lag every SAMPLE_MS until `stop()`, which resolves the samples. */
function sampleLag(store: PostgresIngestStore) {
  const samples: { seconds: number; records: number }[] = []
  let sampling = true
  const done = (async () => {
    const started = performance.now()
    for (let tick = 1; sampling; tick++) {
      // Now taken after the answer, as readiness does: an upper bound of the age at the snapshot.
      samples.push(readLag(await store.projectionLag(), Date.now()))
      const wait = started + tick * SAMPLE_MS - performance.now()
      if (wait > 0) await sleep(wait)
      else tick = Math.ceil((performance.now() - started) / SAMPLE_MS)
    }
  })()
  return {
    async stop() {
      sampling = false
      await done
      return samples
    },
  }
}

/**
 * Measures the sustained single-event rate of the server at `url` (a 2 s warm-up and its
 * catch-up first, then the default `load` duration and the catch-up behind it), then sends
 * single events at LAG_SHARE of it for LAG_SECONDS while sampling the projection lag through
 * `store` (a store over the server's database) and waits for the final catch-up.
 */
export async function runLag(
  url: string,
  token: string,
  store: PostgresIngestStore,
): Promise<LagRun> {
  const headers = { authorization: `Bearer ${token}` }
  await load(url, headers, { duration: 2, warmUp: false })
  await caughtUp(store)
  const started = performance.now()
  const peak = await load(url, headers, { warmUp: false })
  const sent = performance.now()
  const peakCatchUp = await caughtUp(store)
  const sustained = Math.round(peak['2xx'] / ((sent - started + peakCatchUp) / 1000))
  const target = Math.round(sustained * LAG_SHARE)

  const sampler = sampleLag(store)
  const run = await load(url, headers, {
    rate: target,
    duration: LAG_SECONDS,
    warmUp: false,
    ignoreCoordinatedOmission: true,
  })
  const samples = await sampler.stop()
  const catchUpMs = await caughtUp(store)
  const seconds = samples.map((s) => s.seconds).sort((a, b) => a - b)
  return {
    sustained,
    peak: Math.round(peak['2xx'] / ((sent - started) / 1000)),
    peakCatchUpMs: Math.round(peakCatchUp),
    target,
    achieved: Math.round(run['2xx'] / run.duration),
    p99Ms: run.latency.p99,
    errors: run.errors + run.non2xx + run.timeouts,
    lagP50: quantile(seconds, 0.5),
    lagP99: quantile(seconds, 0.99),
    lagMax: seconds.at(-1) ?? Number.NaN,
    samples: samples.length,
    behind: samples.filter((s) => s.records > 0).length,
    maxRecords: Math.max(0, ...samples.map((s) => s.records)),
    catchUpMs: Math.round(catchUpMs),
  }
}
