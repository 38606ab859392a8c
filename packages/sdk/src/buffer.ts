import type { TransportRequest, TransportResult } from './transport-types'

/** One request on its way: a single record, or a batch of them (`members`). */
export interface Item {
  readonly request: TransportRequest
  /** The body's size in bytes (a batch: its members' and their separators). */
  readonly bytes: number
  /** Settles the record's `send` promise (a batch's members settle one by one). */
  readonly resolve: (result: TransportResult) => void
  /** Retries so far (network errors, 5xx and 429s). */
  attempt: number
  /** Sent again with refreshed credentials after a 401. */
  refreshed?: boolean
  /** A batch: the records it carries (each settled by its own line of the answer). */
  members?: Item[]
  /** Rolled back once already (another line of its batch was invalid): not re-sent again. */
  resent?: boolean
  /** Goes in a request of its own (its batch was refused, or is refused by this server). */
  alone?: boolean
}

/** The bounded buffer of {@link createBuffer}. */
export interface BoundedBuffer {
  /** Items waiting to leave, oldest first; one sent back to wait again goes to the front. */
  readonly queue: Item[]
  /** Counts a new record in; `false` when that puts the buffer over either bound. */
  add(record: Item): boolean
  /** Counts a settled record out. */
  release(record: Item): void
  /** Records not settled yet, queued or in flight. */
  pending(): number
}

/**
 * The records a transport holds, bounded by count and by body bytes; both count every record
 * from `send` until it settles, in flight included, so a slow server cannot grow memory.
 */
export function createBuffer(maxRecords: number, maxBytes: number): BoundedBuffer {
  let records = 0
  let bytes = 0
  return {
    queue: [],
    add(record) {
      bytes += record.bytes
      return ++records <= maxRecords && bytes <= maxBytes
    },
    release(record) {
      records--
      bytes -= record.bytes
    },
    pending: () => records,
  }
}

/** The UTF-8 size of a body (its length where `TextEncoder` is missing). */
export const byteLength = (s: string): number =>
  typeof TextEncoder === 'undefined' ? s.length : new TextEncoder().encode(s).length
