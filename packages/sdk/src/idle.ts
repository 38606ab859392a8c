/** The flush and close waiters of {@link createIdle}. */
export interface Idle {
  /** Calls `done` once, when nothing is pending or after `ms`, whichever comes first. */
  wait(ms: number, done: () => void): void
  /** Wakes every waiter if nothing is pending any more. */
  check(): void
}

/** Waiters for the moment `pending()` (records queued or in flight) reaches zero. */
export function createIdle(pending: () => number): Idle {
  const waiters = new Set<() => void>()
  const check = () => {
    if (!pending()) for (const wake of waiters) wake()
  }
  return {
    wait(ms, done) {
      const wake = () => {
        waiters.delete(wake)
        clearTimeout(timer)
        done()
      }
      // A plain (ref'd) timer: a caller who asked to flush wants the process to wait that long.
      const timer = setTimeout(wake, ms)
      waiters.add(wake)
      check()
    },
    check,
  }
}
