// The analytics export: accepted records are exported in the background to the optional
// analytics store. A store follows its ingest log behind the projection by cursor: a claim
// leases a range of the log.

/** An accepted event as exported: the `events` row, dates as RFC 3339 strings. */
export interface OutboxEventRow {
  readonly id: string
  readonly project_id: string
  readonly event_type: string
  readonly level: string | null
  readonly message: string | null
  readonly fingerprint: string | null
  readonly occurred_at: string
  readonly received_at: string
  readonly environment: string | null
  readonly release: string | null
  readonly trace_id: string | null
  readonly request_id: string | null
  readonly session_id: string | null
  readonly user_id: string | null
  readonly transaction_name: string | null
  readonly duration_ms: number | null
  readonly issue_id: string | null
  /** The normalised event (`context` holds `service`, `tags`, `exception`, …). */
  readonly payload: Readonly<Record<string, unknown>>
}

/** An accepted span as exported: the `spans` row, dates as RFC 3339 strings. */
export interface OutboxSpanRow {
  readonly id: string
  readonly project_id: string
  readonly trace_id: string | null
  readonly span_id: string | null
  readonly parent_span_id: string | null
  readonly name: string
  readonly kind: string | null
  readonly started_at: string
  readonly ended_at: string | null
  readonly duration_ms: number | null
  readonly environment: string | null
  readonly release: string | null
  readonly received_at: string
  /** The normalised span event. */
  readonly payload: Readonly<Record<string, unknown>>
}

/**
 * The current counts of one (release, environment, minute) of release health, as exported: the
 * `session_minutes` row when the claim read it, which later sessions may change again.
 */
export interface OutboxSessionMinuteRow {
  readonly project_id: string
  readonly release: string
  readonly environment: string
  /** The minute, RFC 3339. */
  readonly minute: string
  readonly healthy: number
  readonly errored: number
  readonly abnormal: number
  readonly crashed: number
  /**
   * Orders the exports of one key (a bigint as a decimal string): the ingest log's newest seq
   * when the counts were read, so a later read never carries a lower version than an earlier
   * one, whichever entries caused them.
   */
  readonly version: string
}

/** One record to export. */
export type OutboxRecord = {
  /**
   * Position (a bigint as a decimal string): the record's ingest log seq. Within one claim,
   * records are in log order.
   */
  readonly seq: string
  /**
   * How many earlier claims of this record ended without an acknowledgement (0: never handed
   * out before, so it cannot be in the analytics store yet).
   */
  readonly attempts: number
  /** When it was accepted (its log entry's receive time). */
  readonly enqueuedAt: Date
} & (
  | { readonly kind: 'event'; readonly row: OutboxEventRow }
  | { readonly kind: 'span'; readonly row: OutboxSpanRow }
  /** One key a session entry touched, with its counts: a replacing row, never looked up. */
  | { readonly kind: 'session_minute'; readonly row: OutboxSessionMinuteRow }
)

/** Records leased to one drainer. */
export interface OutboxClaim {
  /** Identifies the lease; `complete` and `release` only act on records still leased by it. */
  readonly lease: string
  readonly records: readonly OutboxRecord[]
}

/** How far the export is behind: depth and the age of its oldest record. */
export interface OutboxStats {
  /**
   * Records not exported yet: the log entries after the export's position (check-ins and
   * entries not projected yet included; counted up to a cap).
   */
  readonly depth: number
  /** When the oldest of them was accepted; `null` when nothing waits. */
  readonly oldestEnqueuedAt: Date | null
}

/**
 * The durable export feed. Several drainers (processes) may claim at once and never hold the
 * same record while a lease lasts: the log is leased a range at a time, to one drainer, and only
 * up to what the projection has passed. A lease that runs out is handed to the next claim, as a
 * retry.
 */
export interface AnalyticsOutbox {
  /** Leases up to `limit` of the oldest available records for `leaseMs`; none when nothing waits. */
  claim(limit: number, leaseMs: number): Promise<OutboxClaim>
  /**
   * Removes the claimed records (moves the export past the claimed range): the analytics store
   * acknowledged them. Does nothing when the lease was lost (it ran out and another claim took it).
   */
  complete(claim: OutboxClaim): Promise<void>
  /** Gives the records back (attempts + 1), available again at `retryAt` (default: now). */
  release(claim: OutboxClaim, retryAt?: Date): Promise<void>
  /** Depth and oldest age of what waits for export. */
  stats(): Promise<OutboxStats>
}
