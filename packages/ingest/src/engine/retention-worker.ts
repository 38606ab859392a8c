import type { EngineLogger } from '../logger'
import { createLoop, type Loop } from '../loop'
import type { RetentionReport, RetentionStore } from '../ports'

/** Options of {@link createRetentionWorker}. */
export interface RetentionWorkerOptions {
  readonly store: Pick<RetentionStore, 'expireTelemetry'>
  readonly logger: EngineLogger | undefined
  readonly now: () => Date
  /** A project's period when it sets none, in days. */
  readonly defaultDays: number
  readonly batchSize: number
  /** Between passes, in ms. */
  readonly intervalMs: number
  /** Before the first pass (a starting server has other work first), in ms. */
  readonly firstDelayMs: number
}

/** The retention passes. */
export interface RetentionWorker extends Omit<Loop, 'runOnce'> {
  /** One pass now (or the running one): its report, `undefined` when it failed. */
  runOnce(): Promise<RetentionReport | undefined>
}

type Counted = 'events' | 'spans' | 'checkIns' | 'artifactBundles' | 'sessionMinutes'

/**
 * The background expiry of old telemetry: a pass every interval deletes, in batches, what is
 * older than each project's period. A failed pass is logged and the next retries; several
 * processes may run passes; stopping aborts the pass after its current batch.
 */
export function createRetentionWorker(options: RetentionWorkerOptions): RetentionWorker {
  const { store, logger } = options
  let lastReport: RetentionReport | undefined
  const loop = createLoop({
    intervalMs: options.intervalMs,
    firstDelayMs: options.firstDelayMs,
    onError: (error) =>
      logger?.error('retention pass failed; retrying at the next one', {
        error: error instanceof Error ? error.message : String(error),
      }),
    async round({ signal }) {
      lastReport = undefined
      const started = Date.now()
      const report = await store.expireTelemetry({
        now: options.now(),
        defaultDays: options.defaultDays,
        batchSize: options.batchSize,
        signal,
      })
      lastReport = report
      const total = (k: Counted) => report.projects.reduce((n, p) => n + p[k], 0)
      const deleted = {
        events: total('events'),
        spans: total('spans'),
        checkIns: total('checkIns'),
        artifactBundles: total('artifactBundles'),
        sessionMinutes: total('sessionMinutes'),
        artifactChunks: report.artifactChunks,
      }
      if (Object.values(deleted).some((n) => n > 0)) {
        const fields = { ...deleted, projects: report.projects.length, ms: Date.now() - started }
        logger?.info?.('retention pass deleted expired telemetry', fields)
      }
    },
  })
  return {
    start: () => loop.start(),
    wake: () => loop.wake(),
    stop: () => loop.stop(),
    get running() {
      return loop.running
    },
    async runOnce() {
      await loop.runOnce()
      return lastReport
    },
  }
}
