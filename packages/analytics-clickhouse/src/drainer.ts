import { type AnalyticsOutbox, createLoop, type OutboxClaim } from '@tis/ingest'
import { retryDelayMs } from './backoff'
import { errorMessage } from './errors'
import type { AnalyticsSink } from './sink'
import { createFailureThrottle, type FailureReport } from './throttle'

/** The step of a drain that failed. */
export type DrainFailureKind = 'claim' | 'insert' | 'complete' | 'release'

/** Options of {@link createAnalyticsDrainer}. */
export interface AnalyticsDrainerOptions {
  /** The durable queue to drain. */
  readonly outbox: AnalyticsOutbox
  /** Where records go (e.g. `createClickHouseAnalyticsStore`). */
  readonly sink: AnalyticsSink
  /** Most records claimed and inserted per batch. @default 20000 */
  readonly batchSize?: number
  /**
   * Shortest time between two batches that were not full: while caught up, at most about one
   * insert per table per interval. A full batch is followed by the next one at once, so a
   * backlog drains at the pace of the stores, in inserts of `batchSize` rows. @default 1000
   */
  readonly intervalMs?: number
  /** Lease of a claim; keep it longer than the client's request timeout. @default 60000 */
  readonly leaseMs?: number
  /** At most one report per failure kind per this many seconds. @default 60 */
  readonly throttleSeconds?: number
  /** Receives throttled failure reports (log them, count them); its errors are ignored. */
  readonly onFailure?: (report: FailureReport<DrainFailureKind>) => void
  /** Clock in milliseconds. @default Date.now */
  readonly now?: () => number
  /** Waits `ms` or until `signal` aborts. @default a setTimeout that abort cuts short */
  readonly sleep?: (ms: number, signal: AbortSignal) => Promise<void>
  /** Jitter source in [0, 1). @default Math.random */
  readonly random?: () => number
}

/** Counters of a drainer. */
export interface AnalyticsDrainerStats {
  readonly running: boolean
  /** Records acknowledged by the store and completed in the outbox. */
  readonly exported: number
  /** Of those, records a retry found already stored and did not send again. */
  readonly skipped: number
  /** Failures of every kind so far. */
  readonly failures: number
  /** Failed batches since the last successful one (drives the backoff). */
  readonly consecutiveFailures: number
}

/** Background export from the outbox to the analytics store. */
export interface AnalyticsDrainer {
  /** Starts the loop (no-op when running). */
  start(): void
  /** Stops the loop: cuts its wait short and resolves once the batch in flight is done. */
  stop(): Promise<void>
  /** One claim → insert → complete round; resolves with the records exported, never rejects. */
  drainOnce(): Promise<number>
  stats(): AnalyticsDrainerStats
}

interface Round {
  readonly exported: number
  /** The claim was full: more records are probably waiting. */
  readonly full?: boolean
  /** Milliseconds to wait before the next round when it failed. */
  readonly retryInMs?: number
}

/** A drainer: claim a batch, insert it, complete it; on failure release it with backoff. */
export function createAnalyticsDrainer(options: AnalyticsDrainerOptions): AnalyticsDrainer {
  const { outbox, sink, onFailure } = options
  const batchSize = options.batchSize ?? 20_000
  const intervalMs = options.intervalMs ?? 1_000
  const leaseMs = options.leaseMs ?? 60_000
  const now = options.now ?? Date.now
  const random = options.random ?? Math.random
  const throttle = createFailureThrottle<DrainFailureKind>(
    (options.throttleSeconds ?? 60) * 1_000,
    now,
  )
  let exported = 0
  let skipped = 0
  let consecutiveFailures = 0
  let tail: Promise<unknown> = Promise.resolve()

  function fail(kind: DrainFailureKind, error: unknown): void {
    const report = throttle.record(kind, errorMessage(error))
    if (!report || !onFailure) return
    try {
      onFailure(report)
    } catch {
      // A failing reporter must not stop the export.
    }
  }

  function failedRound(kind: DrainFailureKind, error: unknown): Round {
    fail(kind, error)
    consecutiveFailures += 1
    return { exported: 0, retryInMs: retryDelayMs(consecutiveFailures, random) }
  }

  async function round(): Promise<Round> {
    let claim: OutboxClaim
    try {
      claim = await outbox.claim(batchSize, leaseMs)
    } catch (error) {
      return failedRound('claim', error)
    }
    if (claim.records.length === 0) return { exported: 0 }
    let result: Awaited<ReturnType<AnalyticsSink['insert']>>
    try {
      result = await sink.insert(claim.records)
    } catch (error) {
      const outcome = failedRound('insert', error)
      await outbox
        .release(claim, new Date(now() + (outcome.retryInMs ?? 0)))
        .catch((e) => fail('release', e))
      return outcome
    }
    try {
      await outbox.complete(claim)
    } catch (error) {
      // The rows are stored: releasing raises `attempts`, so the retry skips them.
      const outcome = failedRound('complete', error)
      await outbox.release(claim).catch((e) => fail('release', e))
      return outcome
    }
    consecutiveFailures = 0
    exported += claim.records.length
    skipped += result.skipped
    return { exported: claim.records.length, full: claim.records.length >= batchSize }
  }

  function serialized(): Promise<Round> {
    const next = tail.then(round)
    tail = next.catch(() => {})
    return next
  }

  // The engine's loop: a full batch is followed by the next at once, else one round per
  // interval (its own time included), or the backoff of a failed one.
  const loop = createLoop({
    intervalMs,
    onError: () => {},
    ...(options.sleep ? { sleep: options.sleep } : {}),
    async round() {
      const started = now()
      const outcome = await serialized().catch(
        (): Round => ({ exported: 0, retryInMs: intervalMs }),
      )
      if (outcome.full) return 0
      return outcome.retryInMs ?? Math.max(0, intervalMs - (now() - started))
    },
  })

  return {
    start: () => loop.start(),
    stop: () => loop.stop(),
    drainOnce: () =>
      serialized().then(
        (r) => r.exported,
        () => 0,
      ),
    stats: () => ({
      running: loop.running,
      exported,
      skipped,
      failures: throttle.total(),
      consecutiveFailures,
    }),
  }
}
