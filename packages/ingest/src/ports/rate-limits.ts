/** One counter increment of {@link RateLimitStore.incrementWindows}. */
export interface WindowIncrement {
  readonly key: string
  /** Unix seconds when the window starts. */
  readonly windowStart: number
  readonly windowSeconds: number
  /** How many hits to add. */
  readonly count: number
}

/** Shared fixed-window counters, so every server instance counts against one total. */
export interface RateLimitStore {
  /**
   * Atomically adds each increment to its (key, window) counter, creating it at 0, and resolves
   * each counter's total after the increment, in the order of `increments`. Keys must be unique
   * per (key, windowStart) within one call.
   */
  incrementWindows(increments: readonly WindowIncrement[]): Promise<readonly number[]>
  /** Deletes counters of windows that ended before `before`. */
  pruneWindows(before: Date): Promise<void>
}
