import {
  createMemoryRateLimiter,
  createSharedRateLimiter,
  type EngineStore,
  type RateLimiter,
  windowState,
} from '@tis/ingest'
import type { ServerConfig } from './config'
import type { Logger } from './logger'

/** A limiter that counts nothing and allows everything (`none`: benchmarks only). */
const UNLIMITED: RateLimiter = {
  async hit(_key, limit, windowSeconds, at) {
    return windowState(0, limit, windowSeconds, at)
  },
}

/**
 * The ingest API's limiter for `SERVICE_PUBLIC_API_RATE_LIMIT_STORE`. `database` counts in the
 * store's shared counters (exact across instances) on PostgreSQL; a PGlite
 * data directory is only ever open in one process, so there in-process counting is already exact
 * and costs no statement.
 */
export function rateLimiter(config: ServerConfig, store: EngineStore, logger: Logger): RateLimiter {
  switch (config.rateLimitStore) {
    case 'database': {
      if (config.database.kind === 'pglite') return createMemoryRateLimiter()
      return createSharedRateLimiter(store, {
        onPruneError: (error) =>
          logger.warn('pruning rate-limit windows failed', { error: String(error) }),
      })
    }
    case 'memory':
      return createMemoryRateLimiter()
    case 'none':
      return UNLIMITED
  }
}
