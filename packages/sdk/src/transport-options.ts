import type { DebugLogger } from './logger'

/** Queue and retry policy of `createTransport`. */
export interface TransportOptions {
  /** Most records queued or in flight; newer records are dropped (`queue_full`). @default 100 */
  readonly maxQueueSize?: number
  /** Most bytes of bodies queued or in flight; newer records are dropped. @default 1048576 */
  readonly maxQueueBytes?: number
  /** Requests in flight at once. @default 2 */
  readonly concurrency?: number
  /** Per-attempt timeout; a timed-out attempt counts as a network error. @default 10000 */
  readonly timeoutMs?: number
  /** Retries after a network error or a 5xx. @default 3 */
  readonly maxRetries?: number
  /** First backoff ceiling; doubles per retry, full jitter. @default 1000 */
  readonly backoffMs?: number
  /** Largest backoff ceiling. @default 30000 */
  readonly maxBackoffMs?: number
  /** Longest `Retry-After` worth waiting for; beyond it the endpoint's records are dropped. @default 60000 */
  readonly maxRateLimitWaitMs?: number
  /** Retry a 401 once with refreshed credentials (for token providers). @default false */
  readonly refreshOn401?: boolean
  /** Receives diagnostics. */
  readonly logger?: DebugLogger
}
