import type { EngineRequest, EngineResponse } from '../http'
import type { ProjectionLag, ProjectionStore } from './ports'

/** Options of {@link createReadBarrier}. */
export interface ReadBarrierOptions {
  readonly store: Pick<ProjectionStore, 'pendingTarget' | 'hasProjected' | 'projectionLag'>
  /**
   * Longest a read waits for the projection, in ms; past it the read answers with what is
   * projected and says how far behind that is. 0 never waits. @default 2000
   */
  readonly boundMs?: number
  /** How often a waiting read looks at the projection's position, in ms. @default 10 */
  readonly pollMs?: number
  /** Progress of a projector in this process: wakes waiting reads at once. */
  readonly progress?: (listener: () => void) => () => void
  /** Tells a projector in this process that a read waits (it skips its linger). */
  readonly hurry?: () => void
  /** @default Date.now */
  readonly clock?: () => number
}

/** How far behind the projection a read answered: the records and seconds it may be missing. */
export interface ReadLag {
  readonly records: number
  readonly seconds: number
}

/** Makes reads see every write acknowledged before they began. */
export interface ReadBarrier {
  /**
   * Waits until the projection has passed everything committed when it was called, up to the
   * bound. Resolves `null` when it has (or when there is nothing to wait for), else the lag.
   */
  wait(): Promise<ReadLag | null>
}

/** The header of a read that answered before the projection caught up: seconds behind. */
export const PROJECTION_LAG_HEADER = 'X-Tis-Projection-Lag'
/** The header of a read that answered before the projection caught up: records behind. */
export const PROJECTION_LAG_RECORDS_HEADER = 'X-Tis-Projection-Lag-Records'

/** Default of {@link ReadBarrierOptions.boundMs}. */
export const READ_BARRIER_BOUND_MS = 2000

/** The lag in records and seconds (of the oldest record not projected) at `nowMs`. */
export function readLag(lag: ProjectionLag, nowMs: number): ReadLag {
  const oldest = lag.oldestReceivedAt?.getTime()
  const seconds = oldest === undefined ? 0 : Math.max(0, (nowMs - oldest) / 1000)
  return { records: lag.records, seconds: Math.round(seconds * 1000) / 1000 }
}

/**
 * The read barrier: one query finds the newest committed log entry the projection has not
 * passed (none in the common, caught-up case: the read goes on at once); otherwise the read
 * waits, woken by the in-process projector or polling, until the projection passed it or the
 * bound ran out. A store that fails here is left for the read itself to report.
 */
export function createReadBarrier(options: ReadBarrierOptions): ReadBarrier {
  const { store } = options
  const boundMs = options.boundMs ?? READ_BARRIER_BOUND_MS
  const pollMs = options.pollMs ?? 10
  const clock = options.clock ?? Date.now

  function nextSignal(ms: number) {
    return new Promise<void>((resolve) => {
      let unsubscribe: (() => void) | undefined
      const timer = setTimeout(done, ms)
      function done() {
        clearTimeout(timer)
        unsubscribe?.()
        resolve()
      }
      unsubscribe = options.progress?.(done)
    })
  }

  return {
    async wait() {
      const started = clock()
      try {
        const target = await store.pendingTarget()
        if (!target) return null
        options.hurry?.()
        for (;;) {
          if (await store.hasProjected(target)) return null
          const left = boundMs - (clock() - started)
          if (left <= 0) return readLag(await store.projectionLag(), clock())
          await nextSignal(Math.min(pollMs, left))
        }
      } catch {
        return null
      }
    },
  }
}

type Operation = (request: EngineRequest) => Promise<EngineResponse>

/**
 * Runs `read` behind `barrier`: it waits for the projection first and, when it answers before
 * the projection caught up, carries {@link PROJECTION_LAG_HEADER} (seconds) and
 * {@link PROJECTION_LAG_RECORDS_HEADER}. `createReadApi` runs each read this way once the
 * caller may see the project, so a request that is refused never waits.
 */
export async function readBehind(
  barrier: ReadBarrier,
  read: () => Promise<EngineResponse>,
): Promise<EngineResponse> {
  const lag = await barrier.wait()
  const response = await read()
  if (!lag) return response
  return {
    ...response,
    headers: {
      ...response.headers,
      [PROJECTION_LAG_HEADER]: String(lag.seconds),
      [PROJECTION_LAG_RECORDS_HEADER]: String(lag.records),
    },
  }
}

/**
 * `api` with every operation behind `barrier` ({@link readBehind}), before anything else the
 * operation does: for an API of an embedder's own. The read API takes its barrier as an option
 * instead (`ReadApiOptions.barrier`), and waits only after the access check.
 */
export function withReadBarrier<Api extends object>(api: Api, barrier: ReadBarrier): Api {
  const wrapped: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(api)) {
    if (typeof value !== 'function') {
      wrapped[name] = value
      continue
    }
    const operation = value as Operation
    wrapped[name] = (request: EngineRequest) => readBehind(barrier, () => operation(request))
  }
  return wrapped as Api
}
