import { countDrop, type DropCounts } from './counts'
import type { FlushResult, TransportResult } from './transport-types'

/** The flush and close waiters of {@link createWaiters}, and the counts a flush reports. */
export interface Waiters {
  /** Counts one settled record. */
  count_(result: TransportResult): void
  /** Resolves when nothing is pending any more, or after `ms`, whichever comes first. */
  wait_(ms: number): Promise<void>
  /** Wakes every waiter if nothing is pending any more. */
  check_(): void
  /** The counts since the previous `take`, with what is pending; counting starts afresh. */
  take_(): FlushResult
}

/** Waiters for the moment `pending()` (records queued or in flight) reaches zero. */
export function createWaiters(pending: () => number): Waiters {
  const waiters = new Set<() => void>()
  let sent = 0
  let duplicates = 0
  let dropped: DropCounts = {}
  const check = () => {
    if (!pending()) for (const wake of waiters) wake()
  }
  return {
    count_(result) {
      if (result.status === 'sent') {
        sent++
        if (result.duplicate) duplicates++
      } else countDrop(dropped, result.reason)
    },
    wait_: (ms) =>
      new Promise((resolve) => {
        const wake = () => {
          waiters.delete(wake)
          clearTimeout(timer)
          resolve()
        }
        // A plain (ref'd) timer: a caller who asked to flush wants the process to wait that long.
        const timer = setTimeout(wake, ms)
        waiters.add(wake)
        check()
      }),
    check_: check,
    take_() {
      const result = { sent, duplicates, dropped, pending: pending() }
      sent = duplicates = 0
      dropped = {}
      return result
    },
  }
}
