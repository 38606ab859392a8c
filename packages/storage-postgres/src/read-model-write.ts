import type { WriteOp, WriteResult } from '@tis/ingest'
import { ALERT_ISSUES, alertIssueRows } from './alert-issues'
import { ALERT_MONITORS, alertMonitorRows } from './alert-monitors'
import { type BatchPlan, planBatch, USERS } from './batch-plan'
import { deploymentColumns, PAYLOAD } from './batch-rows'
import {
  COUNT_ISSUE_USERS,
  FIND_DEPLOYMENTS,
  INSERT_CHECK_INS,
  INSERT_PROJECTED_EVENTS,
  INSERT_PROJECTED_SPANS,
  REOPEN_IGNORED,
  UPSERT_DEPLOYMENTS,
  UPSERT_ISSUES,
  UPSERT_MONITORS,
} from './batch-sql'
import type { SqlExecutor, Statement } from './executor'
import { toJsonParam } from './json-param'
import { followMerges } from './merge-follow'
import { addRelease } from './session-plan'
import { PROJECT_SESSIONS, UPSERT_RELEASES } from './session-sql'

interface KeyedDeployment {
  k: number
  id: string
  legacy_id: number
}

/** A deployment posted to the API: the one op written straight to its table, not logged. */
export type DeploymentOp = Extract<WriteOp, { type: 'deployment' }>

/**
 * Writes the deployments of an append in the caller's transaction (the append's own, so they
 * commit or roll back with the batch's log entries) and resolves their results in order: the
 * stored deployment's id and legacy id (an upsert by repository, environment and release may
 * answer with an existing row). Deployments are upserts by natural key, never deduplicated.
 */
export async function writeDeployments(
  tx: SqlExecutor,
  ops: readonly DeploymentOp[],
): Promise<WriteResult[]> {
  if (ops.length === 0) return []
  const { deployments } = await writePlan(tx, planBatch(ops))
  return ops.map((op, ord): WriteResult => {
    const row = deployments.get(ord)
    return row ? { id: row.id, legacyId: row.legacy_id } : { id: op.id, legacyId: null }
  })
}

/** The columns of an events or spans row that name its log entry. */
interface LoggedRow {
  ord: number
  legacy_id: number
  log_xid: string
  enriched: unknown
  [PAYLOAD]: unknown
}

/** The ingest log entries a projected plan's ops came from, by op index. */
export interface PlanEntries {
  readonly seqs: readonly number[]
  readonly xids: readonly string[]
  /** Ops the projection's enricher rewrote (by op index): their rows carry their own payload. */
  readonly rewritten?: ReadonlySet<number>
}

/**
 * Writes a planned batch into the read model: its statements in one pipeline inside the
 * caller's transaction — issues, events, spans, monitors, check-ins, deployments and the alert
 * notifications they cause. The one writer of the read model: the projection of a round of log
 * entries, and the deployments of an append. `log` names the ingest log entries of the plan's
 * ops (by index): events and spans keep their entry's seq as `legacy_id` and take their payload
 * from the entry, so a plan with events or spans needs it. Resolves each deployment op's stored
 * row, by op index.
 */
export async function writePlan(
  tx: SqlExecutor,
  plan: BatchPlan,
  log?: PlanEntries,
): Promise<{ deployments: ReadonlyMap<number, KeyedDeployment> }> {
  if (!log && (plan.events.length > 0 || plan.spans.length > 0)) {
    throw new Error('events and spans are written from their ingest log entries only')
  }
  // Events of a merged fingerprint belong to the issue it was merged into.
  await followMerges(tx, plan)
  // A projected row names its log entry instead of carrying its payload (see PAYLOAD). The
  // plan's rows are filled in place: copying 1,000 rows to add three keys cost more than
  // serialising them.
  const logged = <Row extends LoggedRow>(row: Row): Row => {
    row.legacy_id = log!.seqs[row.ord]!
    row.log_xid = log!.xids[row.ord]!
    if (log!.rewritten?.has(row.ord)) row.enriched = row[PAYLOAD]
    return row
  }
  // Every statement depends only on the effects of the ones before it (events find their issue,
  // check-ins their monitor, by natural key), so the batch goes out as one pipeline.
  const statements: Statement[] = []
  const slot = (text: string, rows: readonly object[]) => {
    if (rows.length === 0) return -1
    statements.push({ text, params: [toJsonParam(rows)] })
    return statements.length - 1
  }
  slot(UPSERT_ISSUES, [...plan.issues.values()].map(indexed))
  const users: { project_id: string; hash: string; users: string[] }[] = []
  for (const { project_id, hash, [USERS]: ids } of plan.issues.values()) {
    if (ids) users.push({ project_id, hash, users: [...ids] })
  }
  slot(COUNT_ISSUE_USERS, users)
  const issueHash = (key: string | null | undefined) =>
    key ? (plan.issues.get(key)?.hash ?? null) : null
  slot(
    INSERT_PROJECTED_EVENTS,
    plan.events.map((row, i) => {
      row.issue_hash = issueHash(plan.eventIssueKeys[i])
      return logged(row)
    }),
  )
  slot(INSERT_PROJECTED_SPANS, plan.spans.map(logged))
  // After the issues, their users and events: what an ignore condition counts is written.
  slot(REOPEN_IGNORED, reopenRows(plan))
  slot(UPSERT_MONITORS, [...plan.monitors.values()].map(indexed))
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
  // Release health: session states, minutes and users; every release the round names.
  const { sessions } = plan
  if (sessions.states.size > 0 || sessions.buckets.length > 0) {
    statements.push({
      text: PROJECT_SESSIONS,
      params: [toJsonParam([...sessions.states.values()]), toJsonParam(sessions.buckets)],
    })
  }
  for (const d of plan.deployments.values()) {
    addRelease(sessions, d.project_id, d.upsert.release, d.upsert.environment, d.upsert.deployedAt)
  }
  slot(UPSERT_RELEASES, [...sessions.releases.values()])
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
  return { deployments: deploymentsByOrd }
}

/**
 * The round's issues for {@link REOPEN_IGNORED}, each with the latest time one of its events was
 * received: the engine's clock, which the condition's `until` and window are read against.
 */
function reopenRows(plan: BatchPlan): { project_id: string; hash: string; at: Date }[] {
  const latest = new Map<string, Date>()
  plan.events.forEach((event, i) => {
    const key = plan.eventIssueKeys[i]
    if (!key) return
    const seen = latest.get(key)
    if (!seen || event.received_at > seen) latest.set(key, event.received_at)
  })
  return [...latest].map(([key, at]) => {
    const { project_id, hash } = plan.issues.get(key)!
    return { project_id, hash, at }
  })
}

/** An upserted row numbered by its place in the statement's parameter (its result's `k`). */
const indexed = <Row extends { k: number }>(row: Row, k: number): Row => {
  row.k = k
  return row
}
