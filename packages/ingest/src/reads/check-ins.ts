import { type CheckInPage, checkInSchema, EVENT_FIELDS, type StoredCheckIn } from '@tis/schema'
import { type EngineResponse, json } from '../http'
import type { CheckInRecord, ProjectRecord, ReadStore } from '../ports'
import { keysetPage } from './cursor'
import { parseCheckInQuery } from './query'

type RawQuery = Readonly<Record<string, string | undefined>>

const NOT_FOUND = { error: 'Not found' } as const

// The fields each shape defines; whatever else was sent is shown as `extra`, as sent.
const CHECK_IN_KNOWN = new Set(Object.keys(checkInSchema.shape))
const EVENT_KNOWN = new Set(EVENT_FIELDS)

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * What the client sent besides the fields of its shape: `context` (the object sent as
 * `context`, `{}` without one) and `extra` (every other top-level field the shape does not
 * define — section 2.3 for compact check-ins and the scheduler's rows, 2.1 for events — as
 * sent).
 */
export function sentFields(c: Pick<CheckInRecord, 'source' | 'payload'>): {
  context: Record<string, unknown>
  extra: Record<string, unknown>
} {
  // The scheduler's `missed` rows are shaped like compact check-ins.
  const known = c.source === 'event' ? EVENT_KNOWN : CHECK_IN_KNOWN
  const context = isObject(c.payload['context']) ? c.payload['context'] : {}
  const extra: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(c.payload)) {
    if (known.has(key) || (key === 'context' && isObject(value))) continue
    extra[key] = value
  }
  return { context, extra }
}

/** JSON of one check-in of a monitor's history. */
export function checkInJson(c: CheckInRecord): StoredCheckIn {
  const message = c.source === 'event' ? c.payload['message'] : undefined
  return {
    id: c.id,
    occurred_at: c.occurredAt.toISOString(),
    received_at: c.receivedAt.toISOString(),
    status: c.status,
    duration_ms: c.durationMs,
    environment: c.environment,
    release: c.release,
    trace_id: c.traceId,
    request_id: c.requestId,
    source: c.source,
    event_id: c.eventId,
    message: typeof message === 'string' ? message : null,
    ...sentFields(c),
  }
}

/**
 * `GET …/monitors/:monitor_id/check_ins`: the monitor's check-ins newest first (occurred_at
 * desc, id desc), keyset-paged like the other lists, with the `status`, `since` and `until`
 * filters. 404 for a monitor that is not the project's (or an id that is not a UUID).
 */
export async function monitorCheckIns(
  store: Pick<ReadStore, 'findMonitor' | 'listCheckIns'>,
  project: ProjectRecord,
  monitorId: string,
  raw: RawQuery,
): Promise<EngineResponse> {
  const monitor = await store.findMonitor(project.id, monitorId)
  if (!monitor) return json(404, NOT_FOUND)
  const result = await keysetPage(
    parseCheckInQuery(project.id, monitor.id, raw),
    (q) => store.listCheckIns(q),
    (c) => ({ at: c.occurredAt, id: c.id }),
  )
  if ('status' in result) return result
  const page: CheckInPage = { check_ins: result.rows.map(checkInJson), next_cursor: result.next }
  return json(200, page)
}
