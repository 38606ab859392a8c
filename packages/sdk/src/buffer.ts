import type { TransportRequest, TransportResult } from './transport-types'

/** One request on its way: a single record, or a batch of them (`members`). */
export interface Item {
  readonly request_: TransportRequest
  /** The body's size in bytes (a batch: its members' and their separators). */
  readonly bytes_: number
  /** Settles the record's `send` promise (a batch's members settle one by one). */
  readonly resolve_: (result: TransportResult) => void
  /** Retries so far (network errors, 5xx and 429s). */
  attempt_: number
  /** Sent again with refreshed credentials after a 401. */
  refreshed_?: boolean
  /** A batch: the records it carries (each settled by its own line of the answer). */
  members_?: Item[]
  /** Rolled back once already (another line of its batch was invalid): not re-sent again. */
  resent_?: boolean
  /** Goes in a request of its own (its batch was refused, or is refused by this server). */
  alone_?: boolean
}

/** The bounded buffer of {@link createBuffer}. */
export interface BoundedBuffer {
  /** Items waiting to leave, oldest first; one sent back to wait again goes to the front. */
  readonly queue_: Item[]
  /** Counts a new record in; `false` when that puts the buffer over either bound. */
  add_(record: Item): boolean
  /** Counts a settled record out. */
  release_(record: Item): void
  /** Records not settled yet, queued or in flight. */
  pending_(): number
}

/**
 * The records a transport holds, bounded by count and by body bytes; both count every record
 * from `send` until it settles, in flight included, so a slow server cannot grow memory.
 */
export function createBuffer(maxRecords: number, maxBytes: number): BoundedBuffer {
  let records = 0
  let bytes = 0
  return {
    queue_: [],
    add_(record) {
      bytes += record.bytes_
      return ++records <= maxRecords && bytes <= maxBytes
    },
    release_(record) {
      records--
      bytes -= record.bytes_
    },
    pending_: () => records,
  }
}
