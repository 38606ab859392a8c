import {
  type AcceptanceStore,
  createProjector,
  createReadBarrier,
  type EngineResponse,
  type IngestLog,
  type ProjectionStore,
  type Projector,
  type ReadBarrier,
  withProjectionLag,
} from '@tis/ingest'
import type { ProjectionConfig } from './config'
import type { Logger } from './logger'

/** A store that acknowledges on the ingest log (every store of `@tis/storage-postgres`). */
export type LogStore = IngestLog & ProjectionStore

/** Whether `store` has an ingest log to accept on. */
export function hasLog(store: object): store is LogStore {
  const s = store as Partial<LogStore>
  return typeof s.append === 'function' && typeof s.project === 'function'
}

/** Most entries per round on the embedded database, whose one connection requests wait behind. */
export const EMBEDDED_ROUND_SIZE = 250

/** Longest a graceful stop keeps projecting what is pending, in ms. */
export const SHUTDOWN_DRAIN_MS = 5_000

/** Options of {@link createProjectionRuntime}. */
export interface ProjectionRuntimeOptions {
  readonly store: LogStore
  readonly config: ProjectionConfig
  /** A single-connection store (PGlite): smaller rounds. */
  readonly embedded: boolean
  readonly logger: Logger
  /**
   * Run the projector in this process. @default config.mode === 'server'
   */
  readonly project?: boolean
}

/** The ingest log's place in a server: acceptance, the projector, the read barrier, readiness. */
export interface ProjectionRuntime {
  /** The projector of this process (none with `SERVICE_PROJECTION=worker`). */
  readonly projector: Projector | undefined
  readonly barrier: ReadBarrier
  /** `writeBatch` of the engine's acceptance: the log's append, waking the projector. */
  accept: AcceptanceStore['writeBatch']
  /** Adds the projection lag to a readiness check. */
  readiness(check: () => Promise<EngineResponse>): () => Promise<EngineResponse>
  /** Resolves once the projection has passed everything acknowledged so far (tests, shutdown). */
  settled(timeoutMs?: number): Promise<boolean>
  /** Starts the projector, if this process runs one. */
  start(): void
  /**
   * Stops the projector after its running round, then projects what is still pending for up to
   * `drainMs` (a graceful stop leaves the read model complete; the log keeps the rest).
   */
  close(drainMs?: number): Promise<void>
}

/** Composes acceptance on the log with the projection behind it (issue 19). */
export function createProjectionRuntime(options: ProjectionRuntimeOptions): ProjectionRuntime {
  const { store, config, logger } = options
  const roundSize = options.embedded
    ? Math.min(config.batchSize, EMBEDDED_ROUND_SIZE)
    : config.batchSize
  const projector =
    (options.project ?? config.mode === 'server')
      ? createProjector({
          store,
          roundSize,
          onError: (error, during) => {
            const fields = { error: error instanceof Error ? error.message : String(error) }
            if (during === 'drain') {
              logger.warn(
                'could not project the rest of the ingest log at shutdown; it will be at the next start',
                fields,
              )
            } else logger.error(`ingest log ${during} failed; retrying`, fields)
          },
        })
      : undefined
  const progress = projector ? { progress: projector.onProgress, hurry: projector.hurry } : {}
  const barrier = createReadBarrier({ store, boundMs: config.readBarrierMs, ...progress })
  return {
    projector,
    barrier,
    async accept(batch, write) {
      const results = await store.append(batch, write)
      projector?.nudge(batch.length)
      return results
    },
    readiness: (check) => withProjectionLag(check, { store, maxLagSeconds: config.maxLagSeconds }),
    async settled(timeoutMs = 30_000) {
      const wait = createReadBarrier({ store, boundMs: timeoutMs, ...progress })
      return (await wait.wait()) === null
    },
    start: () => projector?.start(),
    close: async (drainMs = SHUTDOWN_DRAIN_MS) => projector?.stop({ drainMs }),
  }
}
