import { parseRetryAfter, unrefTimeout } from './timers'
import type { Endpoint } from './transport-types'

/** The per-endpoint `Retry-After` state of {@link createPauses}. */
export interface Pauses {
  /**
   * Pauses `endpoint` for a 429's `Retry-After` (60 s when missing or unreadable); returns the
   * pause's length in milliseconds.
   */
  pause_(endpoint: Endpoint, retryAfter: string | null): number
  /**
   * Milliseconds left of `endpoint`'s pause: zero or less once it is over, NaN when it never
   * began; either way no comparison with a positive number holds.
   */
  left_(endpoint: Endpoint): number
}

/**
 * Which endpoints are rate limited until when; other endpoints carry on meanwhile. `wake` is
 * called when a pause ends, so what waited for it can leave.
 */
export function createPauses(wake: () => void): Pauses {
  const until: Partial<Record<Endpoint, number>> = {}
  return {
    pause_(endpoint, retryAfter) {
      const ms = parseRetryAfter(retryAfter, 60) * 1000
      until[endpoint] = Date.now() + ms
      // The timer's clock (the event loop's, read before this call) may fire it before
      // `Date.now()` reaches the end: the pause ends with its timer, or what waited would sleep
      // on. (Two 429s of one window ask within a second of each other: the first timer ends both.)
      unrefTimeout(() => {
        until[endpoint] = 0
        wake()
      }, ms)
      return ms
    },
    left_: (endpoint) => until[endpoint]! - Date.now(),
  }
}
