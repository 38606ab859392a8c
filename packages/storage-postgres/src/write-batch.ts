import type { WriteOp, WriteOptions, WriteResult } from '@tis/ingest'
import { ALERT_ISSUES, alertIssueRows } from './alert-issues'
import { ALERT_MONITORS, alertMonitorRows } from './alert-monitors'
import { type BatchPlan, type IssueRow, type MonitorRow, planBatch } from './batch-plan'
import { deploymentColumns } from './batch-rows'
import {
  FIND_DEPLOYMENTS,
  INSERT_CHECK_INS,
  INSERT_PROJECTED_EVENTS,
  INSERT_PROJECTED_SPANS,
  insertEvents,
  insertSpans,
  UPSERT_DEPLOYMENTS,
  UPSERT_ISSUES,
  UPSERT_MONITORS,
} from './batch-sql'
import { dedupeResults, planDedupe, storedElsewhere } from './dedupe'
import { type SqlExecutor, type Statement, sqlState } from './executor'
import { toJsonParam } from './json-param'
import { assertProjectsExist } from './project-check'

interface KeyedId {
  k: number
  id: string
}
interface Ordered {
  ord: number
  legacy_id: number
}
interface KeyedDeployment extends KeyedId {
  legacy_id: number
}

/** How often a batch is retried when a concurrent batch stored one of its ids first. */
const UNIQUE_VIOLATION_ATTEMPTS = 3

/**
 * Writes one batch in one transaction with at most ten statements whatever its size, and
 * resolves the results in batch order once the transaction has committed. Ops marked `dedupe`
 * that repeat a stored record (or an earlier op) resolve as duplicates and are not written. Any
 * failure rolls the whole batch back and rejects; a unique violation (a concurrent batch stored
 * the same id first) retries it, and the retry answers that op as a duplicate. With
 * `allOrNothing`, an op whose id belongs to another project leaves the whole batch unwritten.
 */
export async function writeBatch(
  db: SqlExecutor,
  batch: readonly WriteOp[],
  options: WriteBatchOptions = {},
): Promise<readonly WriteResult[]> {
  if (batch.length === 0) return []
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction((tx) => writeInTransaction(tx, batch, options))
    } catch (error) {
      const retry =
        attempt < UNIQUE_VIOLATION_ATTEMPTS &&
        sqlState(error) === '23505' &&
        batch.some((op) => op.dedupe)
      if (!retry) throw error
    }
  }
}

/** {@link writeBatch}'s work inside the caller's transaction: duplicates looked up, the rest written. */
export async function writeInTransaction(
  tx: SqlExecutor,
  batch: readonly WriteOp[],
  options: WriteBatchOptions,
): Promise<WriteResult[]> {
  const dedupe = await planDedupe(tx, batch)
  const ops = dedupe.fresh.map((i) => batch[i]!)
  // All or nothing: an id stored by another project leaves the fresh ops unwritten (only the
  // lookup ran); the engine answers that op's line as a conflict.
  if (
    options.allOrNothing &&
    [...dedupe.known].some(([i, result]) => storedElsewhere(batch[i]!, result))
  ) {
    return dedupeResults(
      batch,
      dedupe,
      ops.map((op) => ({ id: op.id, legacyId: null })),
    )
  }
  await assertProjectsExist(tx, ops)
  const outbox = options.analyticsOutbox ?? false
  const written = ops.length === 0 ? [] : resultsOf(ops, await runPlan(tx, planBatch(ops), outbox))
  return dedupeResults(batch, dedupe, written)
}

function resultsOf(
  batch: readonly WriteOp[],
  stored: Awaited<ReturnType<typeof runPlan>>,
): WriteResult[] {
  const { events, spans, deployments } = stored
  return batch.map((op, ord): WriteResult => {
    switch (op.type) {
      case 'event':
        return { id: op.id, legacyId: events.get(ord) ?? null }
      case 'span':
        return { id: op.id, legacyId: spans.get(ord) ?? null }
      case 'check_in':
        return { id: op.id, legacyId: null }
      case 'deployment': {
        const row = deployments.get(ord)
        return row ? { id: row.id, legacyId: row.legacy_id } : { id: op.id, legacyId: null }
      }
      default:
        return op satisfies never
    }
  })
}

/** Options of {@link writeBatch}. */
export interface WriteBatchOptions extends WriteOptions {
  /** Also queue the batch's events and spans in the analytics outbox (same transaction). */
  readonly analyticsOutbox?: boolean
}

const STATEMENTS = {
  plain: { events: insertEvents(false), spans: insertSpans(false) },
  outbox: { events: insertEvents(true), spans: insertSpans(true) },
  // The projection knows each row's legacy_id (its log seq): nothing to report back, and the
  // payloads are copied from the log entries.
  projected: { events: INSERT_PROJECTED_EVENTS, spans: INSERT_PROJECTED_SPANS },
}

/** The ingest log entries a projected plan's ops came from, by op index. */
export interface PlanEntries {
  readonly seqs: readonly number[]
  readonly xids: readonly string[]
  /** Ops the projection's enricher rewrote (by op index): their rows carry their own payload. */
  readonly rewritten?: ReadonlySet<number>
}

/**
 * Runs a planned batch's statements in one pipeline inside the caller's transaction. `log`,
 * when given, names the ingest log entries of the batch's ops (by index): projected events and
 * spans keep their seq as `legacy_id` and take their payload from the entry, and their maps in
 * the result stay empty (the projection needs none).
 */
export async function runPlan(
  tx: SqlExecutor,
  plan: BatchPlan,
  outbox: boolean,
  log?: PlanEntries,
) {
  const insert = outbox ? STATEMENTS.outbox : log ? STATEMENTS.projected : STATEMENTS.plain
  // A projected row names its log entry instead of carrying its payload.
  const logged = <Row extends { ord: number; payload: unknown }>({ payload, ...row }: Row) => ({
    ...row,
    legacy_id: log!.seqs[row.ord]!,
    log_xid: log!.xids[row.ord]!,
    ...(log!.rewritten?.has(row.ord) ? { enriched: payload } : {}),
  })
  // Every statement depends only on the effects of the ones before it (events find their issue,
  // check-ins their monitor, by natural key), so the batch goes out as one pipeline.
  const statements: Statement[] = []
  const slot = (text: string, rows: readonly object[]) => {
    if (rows.length === 0) return -1
    statements.push({ text, params: [toJsonParam(rows)] })
    return statements.length - 1
  }
  slot(
    UPSERT_ISSUES,
    [...plan.issues.values()].map((row, k) => ({ ...stripIssue(row), k })),
  )
  const issueHash = (key: string | null | undefined) =>
    key ? (plan.issues.get(key)?.hash ?? null) : null
  const events = slot(
    insert.events,
    plan.events.map((row, i) => ({
      ...(log ? logged(row) : { ...row, legacy_id: null }),
      issue_hash: issueHash(plan.eventIssueKeys[i]),
    })),
  )
  const spans = slot(
    insert.spans,
    plan.spans.map((row) => (log ? logged(row) : { ...row, legacy_id: null })),
  )
  slot(
    UPSERT_MONITORS,
    [...plan.monitors.values()].map((row, k) => ({ ...stripMonitor(row), k })),
  )
  slot(INSERT_CHECK_INS, plan.checkIns)
  const keys = [...plan.deployments.keys()]
  const deployments = [...plan.deployments.values()].map((d, k) => ({
    k,
    id: d.id,
    project_id: d.project_id,
    source: d.source,
    received_at: d.received_at,
    ...deploymentColumns(d.upsert),
  }))
  slot(UPSERT_DEPLOYMENTS, deployments)
  // Alert rules, once the issues, events, monitors and check-ins of the round are written: the
  // notifications are recorded with the change (docs/alerts.md).
  slot(ALERT_ISSUES, alertIssueRows(plan))
  slot(ALERT_MONITORS, alertMonitorRows(plan))
  // After the upsert, every key has a row: the one written, or the one an `event` op matched.
  const found = slot(
    FIND_DEPLOYMENTS,
    deployments.map(({ k, project_id, repository, environment, release }) => ({
      k,
      project_id,
      repository,
      environment,
      release,
    })),
  )
  const results = await tx.pipeline(statements)
  const rowsOf = <T>(index: number) => (index === -1 ? [] : (results[index] as T[]))
  const byKey = new Map(rowsOf<KeyedDeployment>(found).map((r) => [keys[r.k]!, r]))
  const deploymentsByOrd = new Map<number, KeyedDeployment>()
  for (const [ord, key] of plan.deploymentOps) {
    const row = byKey.get(key)
    if (row) deploymentsByOrd.set(ord, row)
  }
  return {
    events: new Map(rowsOf<Ordered>(events).map((r) => [r.ord, r.legacy_id])),
    spans: new Map(rowsOf<Ordered>(spans).map((r) => [r.ord, r.legacy_id])),
    deployments: deploymentsByOrd,
  }
}

const stripIssue = ({ _firstReleaseAt, _lastReleaseAt, ...row }: IssueRow) => row
const stripMonitor = ({ _releaseAt, ...row }: MonitorRow) => row
