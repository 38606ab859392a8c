import type { Item } from './buffer'
import type { DebugLogger } from './logger'
import type { BatchLine, DropReason, TransportResult } from './transport-types'

/** Most records, and body bytes (a keepalive request's budget), in one batch request. */
const BATCH_RECORDS = 100
const BATCH_BYTES = 60_000

/** The batch-mode sender of {@link createBatchSender}. */
export interface BatchSender {
  /** `item`, or `item` with the `ingest_events` records queued behind it as one batch. */
  gather_(item: Item): Item
  /**
   * Settles or re-queues a batch by its answer: a 2xx or a 422 line by line; a 404, 405, 413
   * or 415 (refused as a batch) record by record. `false` for any other answer (the transport
   * handles it as for a single record), or for a single record.
   */
  answered_(item: Item, status: number, lines: readonly BatchLine[] | undefined): boolean
}

/**
 * One batch request (`POST /api/v1/ingest_events/batch`, NDJSON) carrying `members`. It has no
 * bytes or `resolve` of its own: the buffer counts its members, and they settle one by one.
 */
const batchOf = (members: Item[]): Item =>
  ({
    request_: {
      endpoint: 'ingest_events',
      batch: true,
      body: members.map((m) => m.request_.body).join('\n'),
    },
    attempt_: 0,
    members_: members,
  }) as Item

/**
 * Sends queued events together; settles a batch by its lines, or re-queues it record by record.
 * Batch mode ends for good when the server has no batch endpoint (404, 405, 415).
 */
export function createBatchSender(
  queue: Item[],
  settle: (item: Item, result: TransportResult) => void,
  log: DebugLogger,
): BatchSender {
  let enabled = true
  const alone = (i: Item) =>
    !enabled || i.alone_ || i.members_ || i.request_.endpoint !== 'ingest_events'
  return {
    gather_(item) {
      if (alone(item)) return item
      const members = [item]
      let size = item.bytes_
      for (let i = 0; i < queue.length && members.length < BATCH_RECORDS; ) {
        const next = queue[i]!
        if (!alone(next) && size + next.bytes_ < BATCH_BYTES) {
          members.push(queue.splice(i, 1)[0]!)
          size += next.bytes_ + 1
        } else i++
      }
      return members[1] ? batchOf(members) : item
    },
    answered_({ members_: members }, status, lines) {
      if (!members) return false
      if ([404, 405, 413, 415].includes(status)) {
        // No batch endpoint (from now on), or over its caps or rate-limit window (413, these
        // records): one record per request.
        enabled &&= status === 413
        for (const m of members) m.alone_ = true
        queue.unshift(...members)
        return true
      }
      const ok = status > 199 && status < 300
      if (!ok && (status !== 422 || !lines)) return false
      // A 2xx: every line is sent (a duplicate one said so). A 422 is all or nothing: the invalid
      // lines are dropped, the valid ones sent again, once.
      const back = members.filter((m, i) => {
        const line = lines?.[i]
        if (ok || line?.status === 'accepted') settle(m, sent(status, line?.duplicate))
        else if (line?.status !== 'rolled_back' || m.resent_) {
          log('batch line rejected', line?.errors)
          settle(m, dropped('rejected', status))
        } else {
          m.resent_ = true
          return true
        }
        return false
      })
      if (back[0]) queue.unshift(batchOf(back))
      return true
    },
  }
}

/** The result of a record the server took (`duplicate`: it already had it). */
export const sent = (statusCode: number, duplicate?: boolean): TransportResult => ({
  status: 'sent',
  statusCode,
  ...(duplicate && { duplicate }),
})

/** The result of a record given up on (`statusCode`: the server's answer, when it had one). */
export const dropped = (reason: DropReason, statusCode?: number): TransportResult => ({
  status: 'dropped',
  reason,
  ...(statusCode && { statusCode }),
})
