import { parseRetryAfter, unrefTimeout } from './timers'
import type { Endpoint } from './transport-types'

/** The per-endpoint `Retry-After` state of {@link createPauses}. */
export interface Pauses {
  /** Pauses `endpoint` for a 429's `Retry-After` (60 s when missing or unreadable). */
  pause(endpoint: Endpoint, retryAfter: string | null): void
  /** Milliseconds left of `endpoint`'s pause (zero or less when it is not paused). */
  left(endpoint: Endpoint): number
  /** Calls `wake` once the pause ending at `at` is over (one timer: the earliest end wins). */
  wakeAt(at: number, wake: () => void): void
}

/** Which endpoints are rate limited until when; other endpoints carry on meanwhile. */
export function createPauses(): Pauses {
  const until: Partial<Record<Endpoint, number>> = {}
  let timer: ReturnType<typeof setTimeout> | undefined
  let timerAt = Infinity
  return {
    pause(endpoint, retryAfter) {
      until[endpoint] = Date.now() + parseRetryAfter(retryAfter, 60) * 1000
    },
    left: (endpoint) => (until[endpoint] ?? 0) - Date.now(),
    wakeAt(at, wake) {
      if (at >= timerAt) return
      clearTimeout(timer)
      timerAt = at
      timer = unrefTimeout(() => {
        timerAt = Infinity
        wake()
      }, at - Date.now())
    },
  }
}
