import { type ProjectionEnricher, StoreError, type WriteOp } from '@tis/ingest'
import { createArtifactLookup } from '../artifacts'
import { planBatch } from '../batch-plan'
import { planDedupe } from '../dedupe'
import { type SqlExecutor, sqlState } from '../executor'
import { writePlan } from '../read-model-write'
import type { LogEntry } from './consume'
import { decodeOp, type LoggedOp } from './log-record'

/** The consumer name of the read-model projection. */
export const PROJECTION = 'projection'

/**
 * Writes the read model of a round of log entries in the caller's transaction: issues (one
 * upsert per distinct group, counts aggregated in memory), events, spans, monitors and their
 * check-in history and event-implied deployments. Projected events and spans keep their log seq
 * as `legacy_id`. The analytics export follows the projection by cursor
 * (`src/analytics/range-claim.ts`).
 *
 * Acceptance already refused repeated ids, so a record is never in the read model before its
 * entry is projected. Should one be (a row an old version wrote outside the log, or one written
 * by hand), the store redoes the round entry by entry with {@link projectEntriesSkippingStored} rather than failing for ever.
 *
 * With `enrich`, the decoded ops go through it first (source-map resolution), its look-up
 * reading through `tx`.
 */
export async function projectEntries(
  tx: SqlExecutor,
  entries: readonly LogEntry[],
  enrich?: ProjectionEnricher,
): Promise<void> {
  const { ops, rewritten } = await enriched(
    tx,
    entries.map((e) => decodeOp(e.record)),
    enrich,
  )
  await writePlan(tx, planBatch(ops), { ...logOf(entries), rewritten })
}

/**
 * {@link projectEntries} that first leaves out every entry whose id is already stored: the
 * fallback for a round that failed with a unique violation.
 */
export async function projectEntriesSkippingStored(
  tx: SqlExecutor,
  entries: readonly LogEntry[],
  enrich?: ProjectionEnricher,
): Promise<void> {
  const ops: LoggedOp[] = entries.map((e) => ({ ...decodeOp(e.record), dedupe: true }))
  const { fresh } = await planDedupe(tx, ops)
  if (fresh.length === 0) return
  const kept = await enriched(
    tx,
    fresh.map((i) => ops[i]!),
    enrich,
  )
  await writePlan(tx, planBatch(kept.ops), {
    ...logOf(fresh.map((i) => entries[i]!)),
    rewritten: kept.rewritten,
  })
}

/**
 * The round's ops through the enricher, its look-up bound to the round's transaction: on
 * PGlite's one connection a look-up outside it would wait for the round for ever, and on
 * PostgreSQL it sees what the round sees. An enricher that loses or adds ops fails the round.
 * `rewritten` names the ops it gave back as other objects: their rows must carry their own
 * payload rather than copy the logged one.
 */
async function enriched<T extends WriteOp>(
  tx: SqlExecutor,
  ops: readonly T[],
  enrich: ProjectionEnricher | undefined,
): Promise<{ ops: readonly T[]; rewritten: ReadonlySet<number> }> {
  if (enrich === undefined || ops.length === 0) return { ops, rewritten: new Set() }
  const out = await enrich(ops, createArtifactLookup(tx))
  if (out.length !== ops.length) {
    throw new Error(`the projection's enricher returned ${out.length} ops for ${ops.length}`)
  }
  const rewritten = new Set<number>()
  out.forEach((op, i) => {
    if (op !== ops[i]) rewritten.add(i)
  })
  return { ops: out, rewritten }
}

/** The log entries of a plan's ops, by op index. */
const logOf = (entries: readonly LogEntry[]) => ({
  seqs: entries.map((e) => e.seq),
  xids: entries.map((e) => e.xid),
})

/** True for the error a round gets when a projected id is already stored. */
export const isUniqueViolation = (error: unknown) => sqlState(error) === '23505'

/** SQLSTATE classes (and codes) of a failure that passes: the round is retried later as is. */
const TRANSIENT = ['08', '40', '53', '57', '58', 'XX', '55P03']

/**
 * True for an error that applying the same entries again would most likely meet again: any
 * error of PostgreSQL except connection, serialization, resource, operator and internal ones
 * (SQLSTATE classes 08, 40, 53, 57, 58, XX and lock timeouts), or a record that cannot be
 * decoded. The failing entry is then found alone and set aside in `ingest_log_failures`; a
 * transient failure only retries the round.
 */
export function isRecurringFailure(error: unknown): boolean {
  if (StoreError.is(error) && error.code === 'unavailable') return false
  const state = sqlState(error) ?? sqlState((error as { cause?: unknown })?.cause)
  if (state === undefined) return error instanceof Error && !StoreError.is(error)
  // A driver's own code (ECONNRESET, CONNECTION_CLOSED, …) rather than a SQLSTATE: the connection.
  if (!/^[0-9A-Z]{5}$/.test(state) || state.startsWith('E')) return false
  return !TRANSIENT.some((prefix) => state.startsWith(prefix))
}
