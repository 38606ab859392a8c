import type { ReadStore } from '@tis/ingest'
import { boundedDuration, boundedMetricValue } from './aggregate-bounds'
import { numberOrNull, type SqlExecutor } from './executor'
import { conditions } from './read-conditions'

/** Transactions summarised by name, and a metric's values in time buckets. */
export function createPerformanceQueries(
  db: SqlExecutor,
): Pick<ReadStore, 'summarizeTransactions' | 'metricBuckets'> {
  return {
    async summarizeTransactions(query) {
      const c = conditions(query.projectId)
      const since = c.param(query.since, 'timestamptz')
      const until = c.param(query.until, 'timestamptz')
      c.where.push(`e.occurred_at >= ${since}`, `e.occurred_at < ${until}`)
      c.is('e.environment', query.environment)
      c.is('e.release', query.release)
      // Aggregated by name_key over the covering index (index-only); the names of the groups
      // shown are then looked up, one row each. Out-of-range durations are not timed.
      const duration = boundedDuration('e.duration_ms')
      const rows = await db.query(
        `with agg as (
           select e.name_key, count(*) as count,
             count(*) filter (where e.is_error) as error_count,
             percentile_cont(0.5) within group (order by ${duration}) as p50,
             percentile_cont(0.95) within group (order by ${duration}) as p95,
             percentile_cont(0.99) within group (order by ${duration}) as p99,
             avg(${duration}) as avg
           from events e where e.project_id = $1::uuid and e.event_type = 'transaction'${c.sql()}
           group by e.name_key order by count desc, e.name_key
           limit ${c.param(query.limit, 'int')}
         )
         select agg.*, (
           select coalesce(x.transaction_name, x.message, '') from events x
            where x.project_id = $1::uuid and x.event_type = 'transaction'
              and x.occurred_at >= ${since} and x.occurred_at < ${until}
              and x.name_key = agg.name_key
            limit 1) as name
         from agg order by count desc, name`,
        c.params,
      )
      return rows.map((row) => ({
        name: row['name'] as string,
        count: Number(row['count']),
        errorCount: Number(row['error_count']),
        p50: numberOrNull(row, 'p50'),
        p95: numberOrNull(row, 'p95'),
        p99: numberOrNull(row, 'p99'),
        avg: numberOrNull(row, 'avg'),
      }))
    },

    async metricBuckets(query) {
      const c = conditions(query.projectId)
      const since = c.param(query.since, 'timestamptz')
      const interval = c.param(query.intervalSeconds, 'int')
      // name_key is md5(message) as a uuid: the covering index answers without the table.
      c.where.push(
        `e.name_key = md5(${c.param(query.name, 'text')})::uuid`,
        `e.occurred_at >= ${since}`,
        `e.occurred_at < ${c.param(query.until, 'timestamptz')}`,
      )
      c.is('e.environment', query.environment)
      c.is('e.release', query.release)
      // A value of magnitude above 1e20 (an old database's) counts, but is not aggregated.
      const value = boundedMetricValue('e.value')
      const rows = await db.query(
        `select floor(extract(epoch from e.occurred_at - ${since}) / ${interval})::int as k,
           count(*) as count, sum(${value}) as sum, min(${value}) as min, max(${value}) as max,
           avg(${value}) as avg
         from events e where e.project_id = $1::uuid and e.event_type = 'metric'${c.sql()}
         group by 1 order by 1`,
        c.params,
      )
      return rows.map((row) => ({
        start: new Date(
          query.since.getTime() + (row['k'] as number) * query.intervalSeconds * 1000,
        ),
        count: Number(row['count']),
        sum: numberOrNull(row, 'sum'),
        min: numberOrNull(row, 'min'),
        max: numberOrNull(row, 'max'),
        avg: numberOrNull(row, 'avg'),
      }))
    },
  }
}
