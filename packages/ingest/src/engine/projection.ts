import type { EngineResponse } from '../http'
import type { IngestLog, ProjectionStore } from '../log/ports'
import { withProjectionLag } from '../log/projection-health'
import { createProjector, type Projector, type ProjectorOptions } from '../log/projector'
import { createReadBarrier, type ReadBarrier } from '../log/read-barrier'
import type { EngineLogger } from '../logger'
import type { AcceptanceStore } from '../ports'
import type { EngineProjectionConfig } from './types'

/** Most entries per round on the embedded database, whose one connection requests wait behind. */
export const EMBEDDED_ROUND_SIZE = 250

/** Longest a graceful stop keeps projecting what is pending, in ms. */
export const SHUTDOWN_DRAIN_MS = 5_000

/** The ingest log's place in an engine: acceptance, the projector, the read barrier, readiness. */
export interface ProjectionRuntime {
  /** The projector of this process (none when a `tis worker` projects). */
  readonly projector: Projector | undefined
  readonly barrier: ReadBarrier
  /** The engine's acceptance: the log's append, waking the projector. */
  accept: AcceptanceStore['append']
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
  stop(drainMs?: number): Promise<void>
}

/** What a projector tells about its failures (`onError`), said to `logger`. */
export function projectorErrors(
  logger: EngineLogger | undefined,
): NonNullable<ProjectorOptions['onError']> {
  return (error, during) => {
    const fields = { error: error instanceof Error ? error.message : String(error) }
    if (during === 'drain') {
      logger?.warn(
        'could not project the rest of the ingest log at shutdown; it will be at the next start',
        fields,
      )
    } else logger?.error(`ingest log ${during} failed; retrying`, fields)
  }
}

/**
 * Acceptance on the log with the projection behind it: every record is acknowledged once
 * appended, and the projector (in this process, or a `tis worker`) writes the read model.
 */
export function createProjectionRuntime(
  store: IngestLog & ProjectionStore,
  config: EngineProjectionConfig,
  logger: EngineLogger | undefined,
  elsewhere?: Projector,
): ProjectionRuntime {
  const batchSize = config.batchSize ?? 1000
  const roundSize = config.embedded ? Math.min(batchSize, EMBEDDED_ROUND_SIZE) : batchSize
  const run = config.run ?? true
  const projector = !run
    ? undefined
    : (elsewhere ??
      createProjector({
        store,
        roundSize,
        onError: projectorErrors(logger),
      }))
  const progress = projector ? { progress: projector.onProgress, hurry: projector.hurry } : {}
  const barrier = createReadBarrier({
    store,
    boundMs: config.readBarrierMs ?? 2_000,
    ...progress,
  })
  return {
    projector,
    barrier,
    async accept(batch, write) {
      const results = await store.append(batch, write)
      projector?.nudge(batch.length)
      return results
    },
    readiness: (check) =>
      withProjectionLag(check, { store, maxLagSeconds: config.maxLagSeconds ?? 60 }),
    async settled(timeoutMs = 30_000) {
      const wait = createReadBarrier({ store, boundMs: timeoutMs, ...progress })
      return (await wait.wait()) === null
    },
    start: () => projector?.start(),
    stop: async (drainMs = SHUTDOWN_DRAIN_MS) => projector?.stop({ drainMs }),
  }
}
