/** Request caps of section 8 (`SERVICE_PUBLIC_API_RATE_LIMIT_*`). */
export interface RateLimitSettings {
  /** Requests per credential, endpoint and window. @default 1200 */
  readonly requests: number
  /** The window, in seconds. @default 60 */
  readonly periodSeconds: number
  /** Authentication failures per source IP per minute. @default 120 */
  readonly authFailures: number
}

/** The caps of section 8: 1,200 requests per 60 s, 120 authentication failures per minute. */
export const DEFAULT_RATE_LIMITS: RateLimitSettings = {
  requests: 1200,
  periodSeconds: 60,
  authFailures: 120,
}

/** The state of one fixed window after a hit. */
export interface RateLimitState {
  /** False once the hit went over `limit`. */
  readonly allowed: boolean
  /** The cap of the current window. */
  readonly limit: number
  /** Hits left in the window (min 0). */
  readonly remaining: number
  /** Unix time (seconds) when the window resets. */
  readonly reset: number
  /** Whole seconds until the reset (min 1). */
  readonly retryAfter: number
  /** The window length in seconds. */
  readonly windowSeconds: number
  /** Hits counted in the window so far, this one included. */
  readonly count: number
}

/** Counts hits in fixed windows. The in-memory one suits one process; shared ones live in storage. */
export interface RateLimiter {
  /**
   * Counts `count` hits (default 1; a batch counts each of its envelopes) for `key` in the window
   * containing `at` and answers the window's state after them. A negative `count` gives hits
   * back to that window (a batch refused as a whole takes none); once the window has ended,
   * giving back changes nothing.
   */
  hit(
    key: string,
    limit: number,
    windowSeconds: number,
    at: Date,
    count?: number,
  ): Promise<RateLimitState>
}

/** Computes the state of a window from its count. */
export function windowState(
  count: number,
  limit: number,
  windowSeconds: number,
  at: Date,
): RateLimitState {
  const nowSeconds = at.getTime() / 1000
  const start = Math.floor(nowSeconds / windowSeconds) * windowSeconds
  const reset = start + windowSeconds
  return {
    allowed: count <= limit,
    limit,
    remaining: Math.max(0, limit - count),
    reset,
    retryAfter: Math.max(1, Math.ceil(reset - nowSeconds)),
    windowSeconds,
    count,
  }
}

/** A fixed-window limiter in this process's memory; windows of past periods are pruned. */
export function createMemoryRateLimiter(): RateLimiter {
  const windows = new Map<string, { start: number; count: number }>()
  let lastPrune = 0
  return {
    async hit(key, limit, windowSeconds, at, hits = 1) {
      const start = Math.floor(at.getTime() / 1000 / windowSeconds) * windowSeconds
      const mapKey = `${windowSeconds}:${key}`
      const current = windows.get(mapKey)
      const same = current !== undefined && current.start === start
      // Hits given back belong to their own window only: never to a later one.
      if (hits < 0 && !same) return windowState(0, limit, windowSeconds, at)
      const count = same ? current.count + hits : hits
      windows.set(mapKey, { start, count })
      if (at.getTime() - lastPrune > 60_000) {
        lastPrune = at.getTime()
        const nowSeconds = at.getTime() / 1000
        for (const [k, w] of windows) {
          const period = Number(k.slice(0, k.indexOf(':')))
          if (w.start + period <= nowSeconds) windows.delete(k)
        }
      }
      return windowState(count, limit, windowSeconds, at)
    },
  }
}

/** The `X-RateLimit-*` headers of section 8 for a window state. */
export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(state.limit),
    'X-RateLimit-Remaining': String(state.remaining),
    'X-RateLimit-Reset': String(Math.floor(state.reset)),
  }
}

/** The 429 response body and headers of section 7. */
export function tooManyRequests(state: RateLimitState) {
  return {
    status: 429,
    headers: { ...rateLimitHeaders(state), 'Retry-After': String(state.retryAfter) },
    body: {
      error: 'Rate limit exceeded',
      limit: state.limit,
      window_seconds: state.windowSeconds,
      retry_after: state.retryAfter,
    },
  } as const
}
