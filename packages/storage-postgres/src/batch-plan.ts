import type { DeploymentUpsert, MonitorUpdate, WriteOp } from '@tis/ingest'
import {
  type CheckInRow,
  checkInRow,
  type EventRow,
  eventRow,
  type SpanRow,
  spanRow,
} from './batch-rows'
import { addRelease, addSession, emptySessionPlan, type SessionPlan } from './session-plan'

type EventOp = Extract<WriteOp, { type: 'event' }>

/**
 * Key of a row that several ops of one batch can update. `\u0000` cannot occur in stored text;
 * the project id is lower-cased as PostgreSQL compares uuids regardless of case.
 */
export const rowKey = (projectId: string, ...parts: string[]) =>
  [projectId.toLowerCase(), ...parts].join('\u0000')

// Planning-only values of a row, under symbols: JSON.stringify leaves them out of the
// statement's parameter without a copy of the row.
/** Time of the event `first_release` / `last_release` (`last_release` of a monitor) came from. */
export const FIRST_RELEASE_AT: unique symbol = Symbol('firstReleaseAt')
export const LAST_RELEASE_AT: unique symbol = Symbol('lastReleaseAt')
/** The distinct `user_id`s of an issue's events in the batch (docs/issues.md#affected-users). */
export const USERS: unique symbol = Symbol('users')

/** One issue upsert: every error of the batch with the same (project, hash), aggregated. */
export interface IssueRow {
  project_id: string
  hash: string
  grouping_key: string
  title: string
  level: string
  count: number
  first_seen_at: Date
  last_seen_at: Date
  first_release: string | null
  last_release: string | null
  latest_event_id: string
  /** The row's index in the statement's parameter (set by `writePlan`). */
  k: number
  [FIRST_RELEASE_AT]: number
  [LAST_RELEASE_AT]: number
  [USERS]: Set<string> | undefined
}

/** One monitor upsert: every check-in of the batch for (project, slug, environment). */
export interface MonitorRow {
  project_id: string
  slug: string
  environment: string
  status: 'ok' | 'error' | null
  status_at: Date | null
  last_status: string
  last_check_in_at: Date
  expected_interval_seconds: number
  last_release: string | null
  last_duration_ms: number | null
  check_in_count: number
  created_at: Date
  /** The row's index in the statement's parameter (set by `writePlan`). */
  k: number
  [LAST_RELEASE_AT]: number
}

/** One deployment upsert; api rows overwrite, event rows insert only unknown keys. */
export interface DeploymentRow {
  id: string | null
  project_id: string
  source: 'api' | 'event'
  upsert: DeploymentUpsert
  received_at: Date
}

/** The set-based statements one batch turns into, each row list keyed by its natural key. */
export interface BatchPlan {
  readonly events: EventRow[]
  /** Issue key of each of `events` (`null` for non-errors). */
  readonly eventIssueKeys: (string | null)[]
  readonly spans: SpanRow[]
  readonly issues: Map<string, IssueRow>
  readonly monitors: Map<string, MonitorRow>
  readonly checkIns: CheckInRow[]
  /** Monitor key of each of `checkIns`. */
  readonly checkInMonitorKeys: string[]
  readonly deployments: Map<string, DeploymentRow>
  /** Deployment key of each `deployment` op, by batch index. */
  readonly deploymentOps: Map<number, string>
  /** Session states and aggregates, and the releases the batch's records name. */
  readonly sessions: SessionPlan
}

/**
 * Groups a batch into one row list per statement. Several ops hitting the same issue, monitor or
 * deployment become one row (an upsert may touch each row once per statement); the newest
 * occurrence supplies the `last_*` values, ties going to the later op.
 */
export function planBatch(batch: readonly WriteOp[]): BatchPlan {
  const plan: BatchPlan = {
    events: [],
    eventIssueKeys: [],
    spans: [],
    issues: new Map(),
    monitors: new Map(),
    checkIns: [],
    checkInMonitorKeys: [],
    deployments: new Map(),
    deploymentOps: new Map(),
    sessions: emptySessionPlan(),
  }
  batch.forEach((op, ord) => {
    switch (op.type) {
      case 'event': {
        const row = eventRow(op, ord)
        plan.events.push(row)
        addRelease(
          plan.sessions,
          op.projectId,
          op.event.release ?? op.event.context.release,
          op.event.environment ?? op.event.context.environment,
          op.occurredAt,
        )
        plan.eventIssueKeys.push(op.issue ? addIssue(plan.issues, op, row.user_id) : null)
        if (op.monitor) {
          plan.checkInMonitorKeys.push(addMonitor(plan.monitors, op.projectId, op.monitor, op))
          plan.checkIns.push(checkInRow(op, op.monitor, 'event'))
        }
        if (op.deployment) addDeployment(plan.deployments, op.projectId, op.deployment, null, op)
        break
      }
      case 'span':
        plan.spans.push(spanRow(op, ord))
        break
      case 'check_in':
        plan.checkInMonitorKeys.push(addMonitor(plan.monitors, op.projectId, op.monitor, op))
        plan.checkIns.push(checkInRow(op, op.monitor, 'check_in'))
        break
      case 'deployment':
        plan.deploymentOps.set(
          ord,
          addDeployment(plan.deployments, op.projectId, op.upsert, op.id, op),
        )
        break
      case 'session':
        addSession(plan.sessions, op)
        break
      default:
        op satisfies never
    }
  })
  return plan
}

function addIssue(issues: Map<string, IssueRow>, op: EventOp, user: string | null): string {
  const grouping = op.issue!
  const at = op.occurredAt.getTime()
  const release = op.event.release ?? op.event.context.release ?? null
  const key = rowKey(op.projectId, grouping.hash)
  const row = issues.get(key)
  if (!row) {
    issues.set(key, {
      project_id: op.projectId,
      hash: grouping.hash,
      grouping_key: grouping.key,
      title: grouping.title,
      level: grouping.level,
      count: 1,
      first_seen_at: op.occurredAt,
      last_seen_at: op.occurredAt,
      first_release: release,
      last_release: release,
      latest_event_id: op.id,
      k: 0,
      [FIRST_RELEASE_AT]: release === null ? Number.POSITIVE_INFINITY : at,
      [LAST_RELEASE_AT]: release === null ? Number.NEGATIVE_INFINITY : at,
      [USERS]: user === null ? undefined : new Set([user]),
    })
    return key
  }
  row.count += 1
  if (user !== null) {
    if (row[USERS]) row[USERS].add(user)
    else row[USERS] = new Set([user])
  }
  if (at < row.first_seen_at.getTime()) row.first_seen_at = op.occurredAt
  if (at >= row.last_seen_at.getTime()) {
    row.last_seen_at = op.occurredAt
    row.level = grouping.level
    row.latest_event_id = op.id
  }
  if (release !== null && at < row[FIRST_RELEASE_AT]) {
    row.first_release = release
    row[FIRST_RELEASE_AT] = at
  }
  if (release !== null && at >= row[LAST_RELEASE_AT]) {
    row.last_release = release
    row[LAST_RELEASE_AT] = at
  }
  return key
}

function addMonitor(
  monitors: Map<string, MonitorRow>,
  projectId: string,
  m: MonitorUpdate,
  op: WriteOp,
): string {
  const key = rowKey(projectId, m.slug, m.environment)
  const at = m.occurredAt.getTime()
  let row = monitors.get(key)
  if (!row) {
    row = {
      project_id: projectId,
      slug: m.slug,
      environment: m.environment,
      status: null,
      status_at: null,
      last_status: m.status,
      last_check_in_at: m.occurredAt,
      expected_interval_seconds: m.expectedIntervalSeconds,
      last_release: null,
      last_duration_ms: m.durationMs,
      check_in_count: 0,
      created_at: op.receivedAt,
      k: 0,
      [LAST_RELEASE_AT]: Number.NEGATIVE_INFINITY,
    }
    monitors.set(key, row)
  } else if (at >= row.last_check_in_at.getTime()) {
    row.last_status = m.status
    row.last_check_in_at = m.occurredAt
    row.expected_interval_seconds = m.expectedIntervalSeconds
    row.last_duration_ms = m.durationMs
  }
  row.check_in_count += 1
  if (m.health !== null && (row.status_at === null || at >= row.status_at.getTime())) {
    row.status = m.health
    row.status_at = m.occurredAt
  }
  if (m.release !== null && at >= row[LAST_RELEASE_AT]) {
    row.last_release = m.release
    row[LAST_RELEASE_AT] = at
  }
  return key
}

function addDeployment(
  deployments: Map<string, DeploymentRow>,
  projectId: string,
  upsert: DeploymentUpsert,
  id: string | null,
  op: WriteOp,
): string {
  const key = rowKey(projectId, upsert.repository, upsert.environment, upsert.release)
  const existing = deployments.get(key)
  const row: DeploymentRow = {
    id,
    project_id: projectId,
    source: upsert.source,
    upsert,
    received_at: op.receivedAt,
  }
  if (!existing) deployments.set(key, row)
  // An api record overwrites whatever came before it; an event one never overwrites. The row
  // keeps the first api op's id, so every op of the key resolves to the same record.
  else if (upsert.source === 'api') {
    deployments.set(key, { ...row, id: existing.source === 'api' ? existing.id : id })
  }
  return key
}
