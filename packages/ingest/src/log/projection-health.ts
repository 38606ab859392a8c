import type { EngineResponse } from '../http'
import type { ProjectionLag, ProjectionStore } from './ports'
import { readLag } from './read-barrier'

/** Options of {@link withProjectionLag}. */
export interface ProjectionHealthOptions {
  readonly store: Pick<ProjectionStore, 'projectionLag'>
  /**
   * A lag above this many seconds makes readiness say `lagging`. @default 60
   */
  readonly maxLagSeconds?: number
  /** How long a measured lag is reused, in ms (probes come often; the count scans). @default 1000 */
  readonly cacheMs?: number
  /** @default Date.now */
  readonly clock?: () => number
}

/** Default of {@link ProjectionHealthOptions.maxLagSeconds}. */
export const PROJECTION_MAX_LAG_SECONDS = 60

/**
 * `readiness` with the projection's lag in its body: `projection: {records, seconds,
 * max_seconds, lagging, measured_at}` (`measured_at`: when the lag was measured, as measurements
 * are reused for `cacheMs`). Above the bound the body's `status` is `lagging`, still with 200:
 * acceptance is unaffected and every instance shares the lag, so taking instances out of a load
 * balancer would stop ingestion without helping the projection catch up. An unready store
 * answers as before (no lag query).
 */
export function withProjectionLag(
  readiness: () => Promise<EngineResponse>,
  options: ProjectionHealthOptions,
): () => Promise<EngineResponse> {
  const maxSeconds = options.maxLagSeconds ?? PROJECTION_MAX_LAG_SECONDS
  const clock = options.clock ?? Date.now
  const cacheMs = options.cacheMs ?? 1000
  let cached: { at: number; measuredAt: string; lag: Promise<ProjectionLag> } | undefined
  function measure() {
    if (!cached || clock() - cached.at >= cacheMs) {
      const at = clock()
      cached = { at, measuredAt: new Date(at).toISOString(), lag: options.store.projectionLag() }
      cached.lag.catch(() => {
        cached = undefined
      })
    }
    return cached
  }
  return async () => {
    const response = await readiness()
    if (response.status !== 200) return response
    let lag: { records: number; seconds: number }
    let measuredAt: string
    try {
      const measured = measure()
      measuredAt = measured.measuredAt
      lag = readLag(await measured.lag, clock())
    } catch {
      return response
    }
    const lagging = lag.seconds > maxSeconds
    const body = response.body as Record<string, unknown>
    return {
      ...response,
      body: {
        ...body,
        ...(lagging ? { status: 'lagging' } : {}),
        projection: { ...lag, max_seconds: maxSeconds, lagging, measured_at: measuredAt },
      },
    }
  }
}
