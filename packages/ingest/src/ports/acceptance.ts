import type { WriteOp } from './write-op'

// Acceptance: the one port call every accepted record goes through (single records and batches
// alike, through the engine's group commit). It resolves only once the records are durable. The
// engine fills it with the ingest log's append (`IngestLog.append`), which the projection follows.

/**
 * A record already stored under an op's id (or, for a span, the same project's trace and span
 * ids): a fact the store reports; whether it makes the op a duplicate (same project: 200) or a
 * conflict (another project: 422) the engine decides (`ingest/known-record.ts`).
 */
export interface ExistingRecord {
  /** The project that stored it (compared case-insensitively). */
  readonly projectId: string
  readonly id: string
  /** Integer id; `null` for check-ins. */
  readonly legacyId: number | null
}

/** The stored identity of one op, in the order of the batch. */
export interface WriteResult {
  /**
   * The record's id: the op's id, or for a deployment upsert the existing record's id; with
   * `existing`, the existing record's id.
   */
  readonly id: string
  /** Integer id; `null` for check-ins (and for ops of an all-or-nothing batch left unwritten). */
  readonly legacyId: number | null
  /**
   * Set when the op's id (for a span also its trace and span ids within the project) is already
   * stored — before this batch or by an earlier op of it: nothing was written for the op, and
   * `id`/`legacyId` are `existing`'s. Changed in 0.x from the `duplicate`/`conflict` flags.
   */
  readonly existing?: ExistingRecord
}

/** Where accepted telemetry goes: the acknowledgement point of ingestion (the ingest log). */
export interface AcceptanceStore {
  /**
   * Persists a batch atomically — events, spans, check-ins, deployments, and the issue, monitor
   * and deployment updates they imply — and resolves only once it is durable (committed).
   * Results are in the order of `batch`. Rejects without writing anything on failure.
   */
  append(batch: readonly WriteOp[], options?: WriteOptions): Promise<readonly WriteResult[]>
}

/** Options of {@link AcceptanceStore.append}. */
export interface WriteOptions {
  /**
   * All or nothing (a batch request): when any op's `existing` record belongs to another
   * project, nothing of the batch is written (the results still report every `existing`, and
   * every other result, `legacyId: null`, is of an op that was not stored). Without it, an op
   * with an `existing` record is skipped and the rest written.
   * @default false
   */
  readonly allOrNothing?: boolean
}
