import type { WriteOp } from './write-op'

// Acceptance: the one port call every accepted record goes through (single records and batches
// alike, through the engine's group commit). It resolves only once the records are durable.

/** The stored identity of one written record, in the order of the batch. */
export interface WriteResult {
  /** The record's id: the op's id, or for a deployment upsert the existing record's id. */
  readonly id: string
  /** Integer id; `null` for check-ins. */
  readonly legacyId: number | null
  /**
   * The record was already stored in this project (same id, or for a span the same trace and
   * span ids): nothing was written, and `id`/`legacyId` are the stored record's.
   */
  readonly duplicate?: boolean
  /** The id is already used by a record of another project: nothing was written. */
  readonly conflict?: boolean
}

/** Where accepted telemetry goes: the acknowledgement point of ingestion. */
export interface AcceptanceStore {
  /**
   * Persists a batch atomically — events, spans, check-ins, deployments, and the issue, monitor
   * and deployment updates they imply — and resolves only once it is durable (committed).
   * Results are in the order of `batch`. Rejects without writing anything on failure.
   */
  writeBatch(batch: readonly WriteOp[], options?: WriteOptions): Promise<readonly WriteResult[]>
}

/** Options of {@link AcceptanceStore.writeBatch}. */
export interface WriteOptions {
  /**
   * All or nothing (a batch request): when any op's id belongs to another project, nothing of
   * the batch is written. The results then flag the conflicts (and the duplicates), and every
   * other result (`legacyId: null`) is of an op that was not stored. Without it, a conflicting
   * op is skipped and the rest written.
   * @default false
   */
  readonly allOrNothing?: boolean
}
