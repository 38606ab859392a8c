import { type Statement, statementOf } from './read-statements'

// The reads are the store's own (read-statements.ts: the statement it sends, with its
// parameters), called as the read API calls them by default: a page of 50 events (51 asked, to
// know whether there is a next page), 50 transaction names and 15-minute metric buckets over
// the last 24 hours.
const DAY_MS = 86_400_000
const lastDay = () => ({ since: new Date(Date.now() - DAY_MS), until: new Date() })

const eventSearch = (projectId: string, q: string) =>
  statementOf((s) => s.listEvents({ projectId, q, limit: 51 }))
const transactions = (projectId: string) =>
  statementOf((s) => s.summarizeTransactions({ projectId, ...lastDay(), limit: 50 }))
const metric = (projectId: string) =>
  statementOf((s) =>
    s.metricBuckets({ projectId, name: 'db.query', ...lastDay(), intervalSeconds: 900 }),
  )

const PERCENTILES =
  /percentile_cont\(0\.5\) within group \(order by (.+?)\) as p50,\s*percentile_cont\(0\.95\)[^,]*,\s*percentile_cont\(0\.99\)[^,]*as p99/s

/**
 * The proposed query change: one sort per name for the three percentiles instead of three
 * (`percentile_cont(array[…])`), in the store's transactions statement.
 */
function oneSortPercentiles(statement: Statement): Statement {
  const text = statement.text.replace(
    PERCENTILES,
    'percentile_cont(array[0.5, 0.95, 0.99]) within group (order by $1) as percentiles',
  )
  if (text === statement.text) throw new Error('the transactions statement has no p50/p95/p99')
  return { ...statement, text }
}

/** An index change proposed for endpoints over the target, with the statements it speeds up. */
export interface Proposal {
  readonly name: string
  /** Probes (by name prefix) measured again once it is applied. */
  readonly probes: readonly string[]
  readonly explain: (projectId: string) => Promise<readonly Statement[]>
  /** Query changes explained once the index is built (the server still sends the original). */
  readonly variants?: (projectId: string) => Promise<readonly Statement[]>
  readonly apply: readonly string[]
}

/** The proposals of docs/benchmarks.md, applied one after another. */
export const PROPOSALS: readonly Proposal[] = [
  {
    name: 'trigram index on events.message',
    probes: ['GET events?q='],
    explain: async (p) => [await eventSearch(p, 'timeout'), await eventSearch(p, 'no such text')],
    apply: [
      'create extension if not exists pg_trgm',
      'create index if not exists events_message_trgm_idx on events using gin (message gin_trgm_ops)',
    ],
  },
  {
    name: 'covering index of transactions',
    probes: ['GET transactions'],
    explain: async (p) => [await transactions(p)],
    variants: async (p) => [oneSortPercentiles(await transactions(p))],
    apply: [
      `create index events_project_transaction_cover_idx on events (project_id, occurred_at)
        include (transaction_name, message, duration_ms, status_code, level)
        where event_type = 'transaction'`,
    ],
  },
  {
    name: 'covering metric index',
    probes: ['GET metrics'],
    explain: async (p) => [await metric(p)],
    apply: [
      `create index events_project_metric_cover_idx on events (project_id, md5(message), occurred_at)
        include (message, value, environment, release) where event_type = 'metric'`,
    ],
  },
]
