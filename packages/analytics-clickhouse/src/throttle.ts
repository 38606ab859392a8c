/** One throttled failure report. */
export interface FailureReport<K extends string = string> {
  /** Which operation failed. */
  readonly kind: K
  /** The latest failure's message. */
  readonly message: string
  /** Failures of this kind swallowed since the previous report of this kind. */
  readonly suppressed: number
  /** Failures of this kind so far, this one included. */
  readonly total: number
}

/** Counts failures and lets through at most one report per kind per window. */
export interface FailureThrottle<K extends string = string> {
  /** Counts a failure; returns the report to emit, or `undefined` while the window lasts. */
  record(kind: K, message: string): FailureReport<K> | undefined
  /** Failures of every kind so far. */
  total(): number
}

/** A {@link FailureThrottle} with a window of `windowMs`, timed by `now`. */
export function createFailureThrottle<K extends string = string>(
  windowMs: number,
  now: () => number = Date.now,
): FailureThrottle<K> {
  const kinds = new Map<K, { lastReportAt: number; suppressed: number; total: number }>()
  let total = 0
  return {
    record(kind, message) {
      total += 1
      const state = kinds.get(kind)
      const at = now()
      if (!state) {
        kinds.set(kind, { lastReportAt: at, suppressed: 0, total: 1 })
        return { kind, message, suppressed: 0, total: 1 }
      }
      state.total += 1
      if (at - state.lastReportAt < windowMs) {
        state.suppressed += 1
        return undefined
      }
      const report = { kind, message, suppressed: state.suppressed, total: state.total }
      state.lastReportAt = at
      state.suppressed = 0
      return report
    },
    total: () => total,
  }
}
