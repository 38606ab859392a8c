import type { OutboxEventRow, OutboxSessionMinuteRow, OutboxSpanRow } from '@tis/ingest'
import { statusCodeOf } from '@tis/schema'

// Outbox rows → JSONEachRow objects for the raw tables and the session minutes. Mapping never throws: one odd record
// must not block the queue behind it, so missing or malformed values become neutral defaults.

/** How timestamps are written: see `analyticsDdl`. */
export type TimestampLayout = 'datetime64' | 'datetime_ms'

/** One row of the raw events or spans table, ready for JSONEachRow. */
export type ClickHouseRow = Record<string, string | number | null | readonly string[]>

/** A JSON object as found in an outbox row's payload. */
export type JsonRecord = Readonly<Record<string, unknown>>

const isObject = (value: unknown): value is JsonRecord =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
const str = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined
const pad = (n: number, width = 2) => String(n).padStart(width, '0')

/** Milliseconds since the epoch of an RFC 3339 string; 0 when missing or invalid. */
export function epochMs(value: string | null | undefined): number {
  const ms = value ? Date.parse(value) : Number.NaN
  return Number.isFinite(ms) && ms > 0 ? ms : 0
}

/** A `DateTime('UTC')` value: `YYYY-MM-DD hh:mm:ss` of `ms`, UTC. */
export function dateTimeText(ms: number): string {
  const d = new Date(ms)
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`
}

/** `name` (and `name_ms`) in the layout's format, UTC. */
export function timestampColumns(
  name: string,
  ms: number,
  layout: TimestampLayout,
): Record<string, string | number> {
  const d = new Date(ms)
  const seconds = dateTimeText(ms)
  return layout === 'datetime64'
    ? { [name]: `${seconds}.${pad(d.getUTCMilliseconds(), 3)}` }
    : { [name]: seconds, [`${name}_ms`]: d.getUTCMilliseconds() }
}

function contextOf(payload: JsonRecord): JsonRecord {
  return isObject(payload['context']) ? payload['context'] : {}
}

/** `context.exception_class`, else `context.exception.exception_class/class/type/name`. */
export function exceptionClassOf(context: JsonRecord): string {
  const exception = isObject(context['exception']) ? context['exception'] : {}
  return (
    str(context['exception_class']) ??
    str(exception['exception_class']) ??
    str(exception['class']) ??
    str(exception['type']) ??
    str(exception['name']) ??
    ''
  )
}

/** `context.tags` as parallel key and value arrays (Map is not in ClickHouse 18.16). */
export function tagColumns(context: JsonRecord): { tag_keys: string[]; tag_values: string[] } {
  const tags = isObject(context['tags']) ? context['tags'] : {}
  const entries = Object.entries(tags).filter(([, v]) => v !== null && v !== undefined)
  return {
    tag_keys: entries.map(([k]) => k),
    tag_values: entries.map(([, v]) => (typeof v === 'string' ? v : JSON.stringify(v))),
  }
}

/** A raw `events` row. */
export function eventRow(row: OutboxEventRow, layout: TimestampLayout): ClickHouseRow {
  const context = contextOf(row.payload)
  return {
    project_id: row.project_id,
    id: row.id,
    event_type: row.event_type,
    level: row.level ?? '',
    environment: row.environment ?? '',
    release: row.release ?? '',
    service: str(context['service']) ?? '',
    fingerprint: row.fingerprint ?? '',
    message: row.message ?? '',
    exception_class: exceptionClassOf(context),
    transaction_name: row.transaction_name ?? '',
    duration_ms: row.duration_ms,
    trace_id: row.trace_id ?? '',
    request_id: row.request_id ?? '',
    session_id: row.session_id ?? '',
    user_id: row.user_id ?? '',
    issue_id: row.issue_id ?? '',
    ...timestampColumns('occurred_at', epochMs(row.occurred_at), layout),
    ...timestampColumns('received_at', epochMs(row.received_at), layout),
    context: JSON.stringify(context),
    ...tagColumns(context),
  }
}

/** `context.route`, else `context.request.route`, else the span name. */
export function routeOf(context: JsonRecord, name: string): string {
  const request = isObject(context['request']) ? context['request'] : {}
  return str(context['route']) ?? str(request['route']) ?? name
}

/** A raw `spans` row; a missing duration or end is derived from the other. */
export function spanRow(row: OutboxSpanRow, layout: TimestampLayout): ClickHouseRow {
  const context = contextOf(row.payload)
  const started = epochMs(row.started_at)
  const ended = row.ended_at ? epochMs(row.ended_at) : 0
  const duration = row.duration_ms ?? (ended >= started ? ended - started : 0)
  return {
    project_id: row.project_id,
    id: row.id,
    trace_id: row.trace_id ?? '',
    span_id: row.span_id ?? '',
    parent_span_id: row.parent_span_id ?? '',
    name: row.name,
    kind: row.kind ?? '',
    route: routeOf(context, row.name),
    status_code: statusCodeOf(context),
    ...timestampColumns('started_at', started, layout),
    ...timestampColumns('ended_at', ended || started + Math.round(duration), layout),
    duration_ms: duration,
    environment: row.environment ?? '',
    release: row.release ?? '',
    service: str(context['service']) ?? '',
    ...timestampColumns('received_at', epochMs(row.received_at), layout),
    context: JSON.stringify(context),
  }
}

const countOf = (value: unknown): number =>
  typeof value === 'number' && Number.isInteger(value) ? value : 0

/**
 * A session minutes row: the counts as the read model held them, the minute as `DateTime`
 * (seconds cut off, the same in every layout), the version as sent (a decimal string; `0` when
 * it is not one, so any real export replaces it).
 */
export function sessionMinuteRow(row: OutboxSessionMinuteRow): ClickHouseRow {
  const ms = epochMs(row.minute)
  return {
    project_id: row.project_id,
    release: row.release,
    environment: row.environment,
    minute: dateTimeText(ms - (ms % 60_000)),
    healthy: countOf(row.healthy),
    errored: countOf(row.errored),
    abnormal: countOf(row.abnormal),
    crashed: countOf(row.crashed),
    version: /^\d{1,20}$/.test(String(row.version)) ? String(row.version) : '0',
  }
}
