import type { ReadStore } from '@tis/ingest'
import { boundedDuration } from './aggregate-bounds'
import type { Row, SqlExecutor, SqlParam } from './executor'
import { isUuid } from './uuid'

/** The time-bucketed reads the dashboard's charts draw. */
export type ChartQueries = Pick<ReadStore, 'issueActivity' | 'transactionLatency'>

const numberOrNull = (row: Row, column: string) => {
  const v = row[column]
  return v === null || v === undefined ? null : Number(v)
}

/** Bucket `k` of a row: its start is `since + k * interval`. */
const bucketStart = (since: Date, intervalSeconds: number, row: Row) =>
  new Date(since.getTime() + Number(row['k']) * intervalSeconds * 1000)

/**
 * Events per issue and bucket: $1 project, $2 issue ids, $3 since, $4 until, $5 interval (s).
 * The issue ids are narrowed to the project's first (an init plan), so the count is a range scan
 * of events_issue_idx (issue_id, occurred_at) over the window only.
 */
export const ISSUE_ACTIVITY_SQL = `select e.issue_id,
    floor(extract(epoch from e.occurred_at - $3::timestamptz) / $5::int)::int as k,
    count(*) as count
  from events e
 where e.issue_id = any(array(select i.id from issues i
                               where i.project_id = $1::uuid and i.id = any($2::uuid[])))
   and e.occurred_at >= $3::timestamptz and e.occurred_at < $4::timestamptz
 group by 1, 2 order by 1, 2`

/**
 * Transaction timings per bucket: $1 project, $2 since, $3 until, $4 interval (s), then the
 * parameters of `filters` (conditions on `e`). name_key (md5 of the name as a uuid) and the
 * timings are in the covering index events_transactions_cover_idx: an index-only scan. Durations
 * outside 0 to 365 days (an old database's) are left out of the timings, not of the counts.
 */
export function transactionLatencySql(filters: readonly string[]): string {
  const duration = boundedDuration('e.duration_ms')
  return `select floor(extract(epoch from e.occurred_at - $2::timestamptz) / $4::int)::int as k,
    count(*) as count,
    count(*) filter (where e.is_error) as error_count,
    percentile_cont(0.5) within group (order by ${duration}) as p50,
    percentile_cont(0.95) within group (order by ${duration}) as p95,
    percentile_cont(0.99) within group (order by ${duration}) as p99,
    avg(${duration}) as avg
  from events e
 where e.project_id = $1::uuid and e.event_type = 'transaction'
   and e.occurred_at >= $2::timestamptz and e.occurred_at < $3::timestamptz${filters
     .map((f) => ` and ${f}`)
     .join('')}
 group by 1 order by 1`
}

/** Per-issue counts and transaction latency per time bucket, one grouped query each. */
export function createChartQueries(db: SqlExecutor): ChartQueries {
  return {
    async issueActivity(query) {
      const ids = query.issueIds.filter(isUuid)
      if (!isUuid(query.projectId) || ids.length === 0) return []
      const rows = await db.query(ISSUE_ACTIVITY_SQL, [
        query.projectId,
        ids,
        query.since,
        query.until,
        query.intervalSeconds,
      ])
      return rows.map((row) => ({
        issueId: String(row['issue_id']),
        start: bucketStart(query.since, query.intervalSeconds, row),
        count: Number(row['count']),
      }))
    },

    async transactionLatency(query) {
      if (!isUuid(query.projectId)) return []
      const params: SqlParam[] = [query.projectId, query.since, query.until, query.intervalSeconds]
      const where: string[] = []
      const param = (value: SqlParam, type: string) => {
        params.push(value)
        return `$${params.length}::${type}`
      }
      if (query.name !== undefined)
        where.push(`e.name_key = md5(${param(query.name, 'text')})::uuid`)
      if (query.environment !== undefined)
        where.push(`e.environment = ${param(query.environment, 'text')}`)
      if (query.release !== undefined) where.push(`e.release = ${param(query.release, 'text')}`)
      const rows = await db.query(transactionLatencySql(where), params)
      return rows.map((row) => ({
        start: bucketStart(query.since, query.intervalSeconds, row),
        count: Number(row['count']),
        errorCount: Number(row['error_count']),
        p50: numberOrNull(row, 'p50'),
        p95: numberOrNull(row, 'p95'),
        p99: numberOrNull(row, 'p99'),
        avg: numberOrNull(row, 'avg'),
      }))
    },
  }
}
