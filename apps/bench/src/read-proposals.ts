import type { Sql } from 'postgres'

// The statements the server sends (packages/storage-postgres/src/reads.ts, copied here with
// literal parameters so the benchmark can EXPLAIN them; the server is not changed).

const EVENT_COLUMNS = `e.id::text as id, e.legacy_id, e.event_type, e.level, e.message,
  e.fingerprint, e.occurred_at, e.payload, e.issue_id::text as issue_id, e.environment,
  e.release, e.trace_id, e.request_id, e.session_id`

/** `listEvents` for `GET …/events?q=…`. */
function eventSearchSql(projectId: string, q: string): string {
  const escaped = q.replace(/[\\%_]/g, (c) => `\\${c}`).replaceAll("'", "''")
  return `select ${EVENT_COLUMNS} from events e where e.project_id = '${projectId}'::uuid
    and e.message ilike '%' || '${escaped}'::text || '%'
  order by e.occurred_at desc, e.id desc limit 51`
}

const THREE_PERCENTILES = `percentile_cont(0.5) within group (order by e.duration_ms) as p50,
    percentile_cont(0.95) within group (order by e.duration_ms) as p95,
    percentile_cont(0.99) within group (order by e.duration_ms) as p99`
/** The proposed query change: one sort per name for the three percentiles instead of three. */
const ONE_SORT_PERCENTILES = `percentile_cont(array[0.5, 0.95, 0.99]) within group
      (order by e.duration_ms) as percentiles`

/** `summarizeTransactions` for `GET …/transactions` (the last 24 hours). */
function transactionsSql(projectId: string, percentiles = THREE_PERCENTILES): string {
  return `select coalesce(e.transaction_name, e.message, '') as name, count(*)::int as count,
    (count(*) filter (where e.status_code >= 500 or e.level in ('error', 'fatal')))::int
      as error_count,
    ${percentiles},
    avg(e.duration_ms) as avg
  from events e where e.project_id = '${projectId}'::uuid and e.event_type = 'transaction'
    and e.occurred_at >= now() - interval '24 hours' and e.occurred_at < now()
  group by 1 order by count desc, name limit 50`
}

/** `metricBuckets` for `GET …/metrics?name=db.query` (the last 24 hours, 15-minute buckets). */
function metricSql(projectId: string): string {
  const since = `(now() - interval '24 hours')`
  return `select floor(extract(epoch from e.occurred_at - ${since}) / 900)::int as k,
    count(*)::int as count, sum(e.value) as sum, min(e.value) as min, max(e.value) as max,
    avg(e.value) as avg
  from events e where e.project_id = '${projectId}'::uuid and e.event_type = 'metric'
    and md5(e.message) = md5('db.query') and e.message = 'db.query'
    and e.occurred_at >= ${since} and e.occurred_at < now()
  group by 1 order by 1`
}

/** An index change proposed for endpoints over the target, with the statements it speeds up. */
export interface Proposal {
  readonly name: string
  /** Probes (by name prefix) measured again once it is applied. */
  readonly probes: readonly string[]
  readonly explain: (projectId: string) => readonly string[]
  /** Query changes explained once the index is built (the server still sends the original). */
  readonly variants?: (projectId: string) => readonly string[]
  readonly apply: readonly string[]
}

/** The proposals of docs/benchmarks.md, applied one after another. */
export const PROPOSALS: readonly Proposal[] = [
  {
    name: 'trigram index on events.message',
    probes: ['GET events?q='],
    explain: (p) => [eventSearchSql(p, 'timeout'), eventSearchSql(p, 'no such text')],
    apply: [
      'create extension if not exists pg_trgm',
      'create index events_message_trgm_idx on events using gin (message gin_trgm_ops)',
    ],
  },
  {
    name: 'covering index of transactions',
    probes: ['GET transactions'],
    explain: (p) => [transactionsSql(p)],
    variants: (p) => [transactionsSql(p, ONE_SORT_PERCENTILES)],
    apply: [
      `create index events_project_transaction_cover_idx on events (project_id, occurred_at)
        include (transaction_name, message, duration_ms, status_code, level)
        where event_type = 'transaction'`,
    ],
  },
  {
    name: 'covering metric index',
    probes: ['GET metrics'],
    explain: (p) => [metricSql(p)],
    apply: [
      `create index events_project_metric_cover_idx on events (project_id, md5(message), occurred_at)
        include (message, value, environment, release) where event_type = 'metric'`,
    ],
  },
]

/** `EXPLAIN (ANALYZE, BUFFERS)` of `statement`, as text. */
export async function explain(sql: Sql, statement: string): Promise<string> {
  const rows = await sql.unsafe<Array<Record<string, string>>>(
    `explain (analyze, buffers) ${statement}`,
  )
  return rows.map((r) => Object.values(r)[0]).join('\n')
}
