import type { ArtifactLookup, WriteOp, WriteOptions, WriteResult } from '../ports'

/**
 * Acceptance on the ingest log: the acknowledgement point of every record. A store appends the
 * records of a batch to an append-only log in one transaction and resolves once it committed;
 * everything else (issues, events, spans, monitors, check-in history, event-implied deployments,
 * the analytics feed) is projected behind it by {@link ProjectionStore.project}.
 */
export interface IngestLog {
  /**
   * Appends a batch durably: the engine's acceptance port (`AcceptanceStore.append`). Results
   * are in batch order: the log seq as `legacyId` (null for check-ins); a repeated idempotency
   * key reports the record stored under it as `existing` (the engine decides duplicate or
   * conflict). Deployments posted to the API are not logged but written in the same
   * transaction. With `allOrNothing`, another project's key leaves the whole batch unwritten.
   */
  append(batch: readonly WriteOp[], options?: WriteOptions): Promise<readonly WriteResult[]>
}

/** A place in the log that a read waits for; opaque to the engine. */
export type LogTarget = { readonly __logTarget: true } & Record<string, unknown>

/** What one projection round did. */
export interface ProjectionRound {
  /** Another process is projecting right now: this round did nothing. */
  readonly busy: boolean
  /** Entries projected. */
  readonly projected: number
  /** The round was full: more entries may be waiting. */
  readonly more: boolean
}

/** How far the projection is behind acceptance. */
export interface ProjectionLag {
  /** Acknowledged records not projected yet (counted up to a cap). */
  readonly records: number
  /** Receive time of the oldest of them; `null` when there is none. */
  readonly oldestReceivedAt: Date | null
}

/** The projection's side of the log: consume it into the read model, say how far it got. */
export interface ProjectionStore {
  /**
   * Projects up to `limit` entries in log order and moves the projection's position past them,
   * all in one transaction: each entry is projected exactly once, whatever dies when.
   */
  project(limit: number): Promise<ProjectionRound>
  /** The newest acknowledged entry the projection has not passed; `null` when caught up. */
  pendingTarget(): Promise<LogTarget | null>
  /** Whether the projection has passed `target`. */
  hasProjected(target: LogTarget): Promise<boolean>
  /** How far the projection is behind. */
  projectionLag(): Promise<ProjectionLag>
  /**
   * Prepares the log's storage ahead of time and drops segments every consumer has read
   * (partitions). Safe to call from several processes at once.
   */
  maintainLog(
    now: Date,
  ): Promise<{ readonly created: readonly string[]; readonly dropped: readonly string[] }>
}

/**
 * Rewrites the ops of a projection round before they are written (source-map resolution of
 * JavaScript frames, and the grouping that follows from them), looking files up through the
 * round's own transaction. It returns one op per op given, in order; an op it cannot improve
 * comes back as it was. It never throws for one op's content (a map that fails to parse marks
 * the frame); a throw fails the round like a failed write.
 */
export type ProjectionEnricher = <T extends WriteOp>(
  ops: readonly T[],
  lookup: ArtifactLookup,
) => Promise<readonly T[]>
