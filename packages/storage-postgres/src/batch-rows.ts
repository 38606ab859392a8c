import type { DeploymentUpsert, MonitorUpdate, WriteOp } from '@tis/ingest'
import { statusCodeOf } from '@tis/schema'

type EventOp = Extract<WriteOp, { type: 'event' }>
type SpanOp = Extract<WriteOp, { type: 'span' }>
type CheckInOp = Extract<WriteOp, { type: 'check_in' }>
type NormalizedEvent = EventOp['event']

// Column values of the rows the batch statements insert. Each list is sent as one jsonb
// parameter and unpacked by jsonb_to_recordset, so the keys are the column names.

/**
 * The event of an events or spans row, under a symbol: JSON.stringify leaves symbol keys out,
 * so the projection sends rows without it (the statement copies the payload from the log) and
 * without copying each row to drop it. A row whose op the enricher rewrote sends it as
 * `enriched`.
 */
export const PAYLOAD: unique symbol = Symbol('payload')

/** The log entry of a projected row, filled in by `writePlan`. */
const logColumns = () => ({
  legacy_id: 0,
  log_xid: '',
  enriched: undefined as unknown,
})

/**
 * A field of an event as the engine reads it: the top-level value, else the one in `context`
 * (the normaliser copies top-level values into `context`, never the reverse).
 */
function field(
  event: NormalizedEvent,
  name: keyof NormalizedEvent & keyof NormalizedEvent['context'],
) {
  return event[name] ?? event.context[name] ?? null
}

const text = (v: unknown): string | null =>
  v === null || v === undefined ? null : typeof v === 'string' ? v : String(v)
const num = (v: unknown): number | null => (typeof v === 'number' ? v : null)
const date = (v: unknown): string | null => (typeof v === 'string' ? v : null)

/** An `events` row. */
export type EventRow = ReturnType<typeof eventRow>

/** An `events` row; `issue_id` is filled in once the issues are upserted. */
export function eventRow(op: EventOp, ord: number) {
  const e = op.event
  return {
    ord,
    id: op.id,
    project_id: op.projectId,
    event_type: e.event_type,
    level: text(e.level),
    message: text(e.message),
    fingerprint: text(e.fingerprint),
    occurred_at: op.occurredAt,
    received_at: op.receivedAt,
    environment: text(field(e, 'environment')),
    release: text(field(e, 'release')),
    trace_id: text(field(e, 'trace_id')),
    request_id: text(field(e, 'request_id')),
    session_id: text(field(e, 'session_id')),
    user_id: text(field(e, 'user_id')),
    transaction_name: text(field(e, 'transaction_name')),
    duration_ms: num(field(e, 'duration_ms')),
    status_code: statusCodeOf(e.context),
    value:
      e.event_type === 'metric' ? (num(e.context['value']) ?? num(field(e, 'duration_ms'))) : null,
    issue_id: null as string | null,
    issue_hash: null as string | null,
    ...logColumns(),
    [PAYLOAD]: e,
  }
}

/** A `spans` row. */
export type SpanRow = ReturnType<typeof spanRow>

/** A `spans` row; `duration_ms` falls back to `ended_at - started_at`. */
export function spanRow(op: SpanOp, ord: number) {
  const e = op.event
  const startedAt = date(field(e, 'started_at')) ?? op.occurredAt.toISOString()
  const endedAt = date(field(e, 'ended_at'))
  const duration =
    num(field(e, 'duration_ms')) ??
    (endedAt === null ? null : Date.parse(endedAt) - Date.parse(startedAt))
  return {
    ord,
    id: op.id,
    project_id: op.projectId,
    trace_id: text(field(e, 'trace_id')),
    span_id: text(field(e, 'span_id')),
    parent_span_id: text(field(e, 'parent_span_id')),
    name: text(e.name) ?? text(e.message) ?? '',
    kind: text(field(e, 'kind')),
    started_at: startedAt,
    ended_at: endedAt,
    duration_ms: Number.isFinite(duration) ? duration : null,
    environment: text(field(e, 'environment')),
    release: text(field(e, 'release')),
    received_at: op.receivedAt,
    ...logColumns(),
    [PAYLOAD]: e,
  }
}

/** A `check_ins` history row. */
export type CheckInRow = ReturnType<typeof checkInRow>

/**
 * A `check_ins` history row. A check_in event's row gets a new id and points at the event, whose
 * payload it does not copy.
 */
export function checkInRow(
  op: CheckInOp | EventOp,
  m: MonitorUpdate,
  source: 'check_in' | 'event',
) {
  return {
    id: source === 'check_in' ? op.id : null,
    monitor_id: null as string | null,
    project_id: op.projectId,
    slug: m.slug,
    status: m.status,
    environment: m.environment,
    release: m.release,
    occurred_at: m.occurredAt,
    received_at: op.receivedAt,
    duration_ms: m.durationMs,
    trace_id: m.traceId,
    request_id: m.requestId,
    payload: op.type === 'check_in' ? op.checkIn : null,
    source,
    event_id: source === 'event' ? op.id : null,
  }
}

/** A `deployments` row from an upsert: the record's optional fields become columns. */
export function deploymentColumns(upsert: DeploymentUpsert) {
  const r = upsert.record
  const github = r['github']
  return {
    repository: upsert.repository,
    environment: upsert.environment,
    release: upsert.release,
    commit_sha: upsert.commitSha,
    branch: text(r['branch']),
    deployed_at: upsert.deployedAt,
    pull_request_number: text(r['pull_request_number']),
    pull_request_url: text(r['pull_request_url']),
    release_url: text(r['release_url']),
    compare_url: text(r['compare_url']),
    workflow_run_url: text(r['workflow_run_url']),
    deployment_url: text(r['deployment_url']),
    release_tag: text(r['release_tag']),
    github: github !== null && typeof github === 'object' ? github : null,
    payload: r,
  }
}
