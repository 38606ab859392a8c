/** The ingestion endpoints under `{baseUrl}/api/v1/`. */
export type Endpoint = 'ingest_events' | 'check_ins' | 'deployments' | 'sessions'

/** One record ready to send: its endpoint and its serialised envelope. */
export interface TransportRequest {
  readonly endpoint: Endpoint
  /** The JSON body, e.g. `{"event":{…}}`; for a batch, one such envelope per line. */
  readonly body: string
  /** Several `ingest_events` envelopes for `POST /api/v1/ingest_events/batch` (NDJSON). */
  readonly batch?: boolean
}

/** Why a record was not delivered. */
export type DropReason =
  | 'queue_full'
  | 'rate_limited'
  | 'network_error'
  | 'server_error'
  | 'rejected'
  | 'closed'
  | 'disabled'
  | 'sampled'
  | 'before_send'
  | 'internal_error'

/** The outcome of one {@link Transport.send}; the promise never rejects. */
export type TransportResult =
  | {
      readonly status: 'sent'
      readonly statusCode: number
      /** The server already had this record (a retry of one it stored): nothing was written. */
      readonly duplicate?: true
    }
  | { readonly status: 'dropped'; readonly reason: DropReason; readonly statusCode?: number }

/** Counts since the previous flush. */
export interface FlushResult {
  /** Records the server accepted, duplicates included. */
  readonly sent: number
  /** Of `sent`, records the server already had (answered as duplicates). */
  readonly duplicates: number
  /** Records given up on, by reason. */
  readonly dropped: Partial<Record<DropReason, number>>
  /** Records still queued or in flight when the flush returned (its timeout ran out). */
  readonly pending: number
}

/** Options of {@link Transport.flush}. */
export interface FlushOptions {
  /**
   * Start every queued record now, past the concurrency limit (the page is being hidden and
   * only requests already started, with `keepalive`, can outlive it). @default false
   */
  readonly urgent?: boolean
}

/** The port every client sends through (the fetch transport is the default adapter). */
export interface Transport {
  /** Queues a record; resolves once it is sent or dropped. Never rejects. */
  send(request: TransportRequest): Promise<TransportResult>
  /** Resolves when the queue is empty or `timeoutMs` has passed. Never rejects. */
  flush(timeoutMs?: number, options?: FlushOptions): Promise<FlushResult>
  /** Flushes, then drops whatever is left and refuses new records. */
  close?(timeoutMs?: number): Promise<FlushResult>
}

/** The server's answer for one line of a batch (the part of its result the queue reads). */
export interface BatchLine {
  /**
   * `accepted` (stored, or already stored: `duplicate`), `rejected` (this line is invalid) or
   * `rolled_back` (valid, but not stored because another line of the batch was not).
   */
  readonly status: 'accepted' | 'rejected' | 'rolled_back'
  readonly duplicate?: boolean
  /** Why the line was refused. */
  readonly errors?: readonly string[]
}

/** What a request function reports back to the queue. */
export interface RequestOutcome {
  readonly status: number
  /** The `Retry-After` header, when present. */
  readonly retryAfter: string | null
  /** For a batch answered 202 or 422: the result of each line, in order. */
  readonly lines?: readonly BatchLine[]
}

/**
 * Performs one HTTP attempt. `refreshCredentials` asks for a fresh token (after a 401).
 * Rejects on network errors and when `signal` aborts.
 */
export type MakeRequest = (
  request: TransportRequest,
  signal: AbortSignal,
  refreshCredentials: boolean,
) => Promise<RequestOutcome>
