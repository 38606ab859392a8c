import type { CheckInQuery, CheckInRecord, CheckInSource, ReadStore } from '@tis/ingest'
import { numberOrNull, type Row, type SqlExecutor, type SqlParam, textOrNull } from './executor'

/**
 * The statement of one page of a monitor's check-ins, newest first. The monitor, the optional
 * window and the keyset position are conditions on the `check_ins_monitor_time_id_idx` (monitor_id,
 * occurred_at desc, id desc) range, so a page is one index scan in order, without a sort, however
 * long the history. A check_in event's row has no payload of its own: the event's is joined by id.
 */
export function checkInsStatement(query: CheckInQuery): { text: string; params: SqlParam[] } {
  const params: SqlParam[] = [query.monitorId, query.projectId]
  const param = (value: SqlParam, type: string) => {
    params.push(value)
    return `$${params.length}::${type}`
  }
  const where = ['c.monitor_id = $1::uuid', 'c.project_id = $2::uuid']
  if (query.status !== undefined) where.push(`c.status = ${param(query.status, 'text')}`)
  if (query.since) where.push(`c.occurred_at >= ${param(query.since, 'timestamptz')}`)
  if (query.until) where.push(`c.occurred_at < ${param(query.until, 'timestamptz')}`)
  if (query.after) {
    where.push(
      `(c.occurred_at, c.id) < (${param(query.after.at, 'timestamptz')}, ${param(query.after.id, 'uuid')})`,
    )
  }
  const text = `select c.id::text as id, c.status, c.occurred_at, c.received_at, c.duration_ms,
    c.environment, c.release, c.trace_id, c.request_id, c.source, c.event_id::text as event_id,
    coalesce(c.payload, e.payload, '{}'::jsonb) as payload
  from check_ins c left join events e on e.id = c.event_id
  where ${where.join(' and ')}
  order by c.occurred_at desc, c.id desc limit ${param(query.limit, 'int')}`
  return { text, params }
}

function toCheckIn(row: Row): CheckInRecord {
  return {
    id: row['id'] as string,
    status: row['status'] as string,
    occurredAt: row['occurred_at'] as Date,
    receivedAt: row['received_at'] as Date,
    durationMs: numberOrNull(row, 'duration_ms'),
    environment: row['environment'] as string,
    release: textOrNull(row, 'release'),
    traceId: textOrNull(row, 'trace_id'),
    requestId: textOrNull(row, 'request_id'),
    source: row['source'] as CheckInSource,
    eventId: textOrNull(row, 'event_id'),
    payload: row['payload'] as Record<string, unknown>,
  }
}

/** A monitor's check-in history over one executor. */
export function createCheckInQueries(db: SqlExecutor): Pick<ReadStore, 'listCheckIns'> {
  return {
    async listCheckIns(query) {
      const { text, params } = checkInsStatement(query)
      return (await db.query(text, params)).map(toCheckIn)
    },
  }
}
