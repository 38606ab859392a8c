import type { WriteOp, WriteResult } from '@tis/ingest'
import { type BatchPlan, type IssueRow, type MonitorRow, planBatch } from './batch-plan'
import { deploymentColumns } from './batch-rows'
import {
  FIND_DEPLOYMENTS,
  INSERT_CHECK_INS,
  INSERT_EVENTS,
  INSERT_SPANS,
  UPSERT_DEPLOYMENTS,
  UPSERT_ISSUES,
  UPSERT_MONITORS,
} from './batch-sql'
import type { SqlExecutor } from './executor'
import { toJsonParam } from './json-param'

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

/**
 * Writes one batch in one transaction with at most seven statements whatever its size, and
 * resolves the results in batch order once the transaction has committed. Any failure rolls the
 * whole batch back and rejects.
 */
export async function writeBatch(
  db: SqlExecutor,
  batch: readonly WriteOp[],
): Promise<readonly WriteResult[]> {
  if (batch.length === 0) return []
  const plan = planBatch(batch)
  const { events, spans, deployments } = await db.transaction((tx) => runPlan(tx, plan))
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

async function runPlan(tx: SqlExecutor, plan: BatchPlan) {
  if (plan.issues.size > 0) {
    const issueIds = await upsertKeyed(tx, UPSERT_ISSUES, plan.issues, stripIssue)
    plan.events.forEach((row, i) => {
      const key = plan.eventIssueKeys[i]
      if (key) row.issue_id = issueIds.get(key) ?? null
    })
  }
  const events = new Map<number, number>()
  if (plan.events.length > 0) {
    const rows = await tx.query<Ordered>(INSERT_EVENTS, [toJsonParam(plan.events)])
    for (const { ord, legacy_id } of rows) events.set(ord, legacy_id)
  }
  const spans = new Map<number, number>()
  if (plan.spans.length > 0) {
    const rows = await tx.query<Ordered>(INSERT_SPANS, [toJsonParam(plan.spans)])
    for (const { ord, legacy_id } of rows) spans.set(ord, legacy_id)
  }
  if (plan.monitors.size > 0) {
    const monitorIds = await upsertKeyed(tx, UPSERT_MONITORS, plan.monitors, stripMonitor)
    plan.checkIns.forEach((row, i) => {
      row.monitor_id = monitorIds.get(plan.checkInMonitorKeys[i]!) ?? null
    })
    await tx.query(INSERT_CHECK_INS, [toJsonParam(plan.checkIns)])
  }
  return { events, spans, deployments: await upsertDeployments(tx, plan) }
}

/** Runs an upsert over a keyed row map; resolves the stored id of each key. */
async function upsertKeyed<R>(
  tx: SqlExecutor,
  statement: string,
  rows: Map<string, R>,
  toInput: (row: R) => object,
): Promise<Map<string, string>> {
  const keys = [...rows.keys()]
  const input = [...rows.values()].map((row, k) => ({ ...toInput(row), k }))
  const result = await tx.query<KeyedId>(statement, [toJsonParam(input)])
  return new Map(result.map(({ k, id }) => [keys[k]!, id]))
}

const stripIssue = ({ _firstReleaseAt, _lastReleaseAt, ...row }: IssueRow) => row
const stripMonitor = ({ _releaseAt, ...row }: MonitorRow) => row

/** Upserts the batch's deployments; resolves the record of each deployment op, by batch index. */
async function upsertDeployments(tx: SqlExecutor, plan: BatchPlan) {
  const byOrd = new Map<number, KeyedDeployment>()
  if (plan.deployments.size === 0) return byOrd
  const keys = [...plan.deployments.keys()]
  const input = [...plan.deployments.values()].map((d, k) => ({
    k,
    id: d.id,
    project_id: d.project_id,
    source: d.source,
    received_at: d.received_at,
    ...deploymentColumns(d.upsert),
  }))
  const rows = await tx.query<KeyedDeployment>(UPSERT_DEPLOYMENTS, [toJsonParam(input)])
  const byKey = new Map(rows.map((r) => [keys[r.k]!, r]))
  // A deployment op whose key was known and not overwritten (an `event`-sourced op) still
  // reports the record it matched.
  const missing = [...plan.deploymentOps.values()].filter((key) => !byKey.has(key))
  if (missing.length > 0) {
    const lookup = [...new Set(missing)].map((key) => {
      const { k, project_id, repository, environment, release } = input[keys.indexOf(key)]!
      return { k, project_id, repository, environment, release }
    })
    for (const r of await tx.query<KeyedDeployment>(FIND_DEPLOYMENTS, [toJsonParam(lookup)])) {
      byKey.set(keys[r.k]!, r)
    }
  }
  for (const [ord, key] of plan.deploymentOps) {
    const row = byKey.get(key)
    if (row) byOrd.set(ord, row)
  }
  return byOrd
}
