import { addCounts, type DropCounts } from './counts'
import type { FlushResult, TransportResult } from './transport-types'

/** The counts a flush reports, of {@link createTally}. */
export interface Tally {
  /** Counts one settled record. */
  count(result: TransportResult): void
  /** The counts since the previous `take`, with `pending`; starts counting afresh. */
  take(pending: number): FlushResult
}

/** Counts settled records (sent, duplicates, dropped by reason) between flushes. */
export function createTally(): Tally {
  let sent = 0
  let duplicates = 0
  let dropped: DropCounts = {}
  return {
    count(result) {
      if (result.status === 'dropped') dropped = addCounts(dropped, { [result.reason]: 1 })
      else {
        sent++
        if (result.duplicate) duplicates++
      }
    },
    take(pending) {
      const result = { sent, duplicates, dropped, pending }
      sent = duplicates = 0
      dropped = {}
      return result
    },
  }
}
