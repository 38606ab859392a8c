import type { RetentionReport, RetentionStore } from '@tis/ingest'
import type { RetentionConfig } from './config'
import type { Logger } from './logger'

/** Options of {@link createRetentionRuntime}. */
export interface RetentionRuntimeOptions {
  readonly store: Pick<RetentionStore, 'expireTelemetry'>
  readonly config: RetentionConfig
  readonly logger: Logger
  /** @default () => new Date() */
  readonly now?: () => Date
  /** Delay before the first pass, in ms (a starting server has other work first). @default 60000 */
  readonly firstDelayMs?: number
}

/** The retention passes of a server or `tis worker` process. */
export interface RetentionRuntime {
  /** Starts the passes: the first after `firstDelayMs`, then every interval, never two at once. */
  start(): void
  /** One pass now (or the running one). */
  runOnce(): Promise<RetentionReport | undefined>
  /** Stops: no new pass; the running one ends after its current batch. */
  stop(): Promise<void>
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error))

/**
 * Composes the background expiry of old telemetry (issue 23): a pass every
 * `SERVICE_RETENTION_INTERVAL_SECONDS` deletes, in batches, what is older than each project's
 * period. Errors are logged and the next pass retries; several processes may run passes.
 */
export function createRetentionRuntime(options: RetentionRuntimeOptions): RetentionRuntime {
  const { store, config, logger } = options
  const now = options.now ?? (() => new Date())
  const abort = new AbortController()
  let timer: ReturnType<typeof setTimeout> | undefined
  let running: Promise<RetentionReport | undefined> | undefined

  async function pass(): Promise<RetentionReport | undefined> {
    const started = Date.now()
    try {
      const report = await store.expireTelemetry({
        now: now(),
        defaultDays: config.days,
        batchSize: config.batchSize,
        signal: abort.signal,
      })
      const total = (k: 'events' | 'spans' | 'checkIns' | 'artifactBundles') =>
        report.projects.reduce((n, p) => n + p[k], 0)
      const deleted = {
        events: total('events'),
        spans: total('spans'),
        checkIns: total('checkIns'),
        artifactBundles: total('artifactBundles'),
        artifactChunks: report.artifactChunks,
      }
      if (Object.values(deleted).some((n) => n > 0)) {
        logger.info('retention pass deleted expired telemetry', {
          ...deleted,
          projects: report.projects.length,
          ms: Date.now() - started,
        })
      }
      return report
    } catch (error) {
      logger.error('retention pass failed; retrying at the next one', { error: message(error) })
      return undefined
    }
  }

  function runOnce() {
    running ??= pass().finally(() => {
      running = undefined
    })
    return running
  }

  function schedule(delayMs: number) {
    if (abort.signal.aborted) return
    timer = setTimeout(() => {
      void runOnce().then(() => schedule(config.intervalSeconds * 1000))
    }, delayMs)
    timer.unref?.()
  }

  return {
    start() {
      if (timer || abort.signal.aborted) return
      schedule(options.firstDelayMs ?? 60_000)
    },
    runOnce,
    async stop() {
      abort.abort()
      clearTimeout(timer)
      await running
    },
  }
}
