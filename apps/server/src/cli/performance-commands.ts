import type { Command } from './command'
import {
  type MetricSeriesJson,
  metricTable,
  type SpanJson,
  type TraceJson,
  type TransactionListJson,
  traceListTable,
  traceTree,
  transactionTable,
} from './format-performance'
import { id, more, queryString } from './request-parts'

/** The query flags of `transactions`. */
export const TRANSACTION_FLAGS = ['since', 'until', 'environment', 'release', 'limit'] as const
/** The query flags of `metrics` (the metric name is an argument). */
export const METRIC_FLAGS = ['since', 'until', 'interval', 'environment', 'release'] as const
/** The query flags of `traces`. */
export const TRACE_FLAGS = [
  'kind',
  'since',
  'until',
  'environment',
  'release',
  'q',
  'limit',
  'cursor',
] as const

const synopsis = (flags: readonly string[]) => `[--${flags.join(' <v>] [--')} <v>]`

/** `tis transactions`, `tis metrics`, `tis traces` and `tis trace`: the performance reads. */
export const PERFORMANCE_COMMANDS: readonly Command[] = [
  {
    name: 'transactions',
    args: ['<project_id>'],
    options: synopsis(TRANSACTION_FLAGS),
    summary:
      'Transactions per name, busiest first: count, errors, error rate, p50/p95/p99/avg ms (default: the last 24 hours).',
    async run({ client, args, options }) {
      const path = `/api/v1/projects/${id(args[0]!)}/transactions${queryString(TRANSACTION_FLAGS, options.query ?? {})}`
      const json = (await client.request('GET', path)) as TransactionListJson
      return { json, human: () => transactionTable(json) }
    },
  },
  {
    name: 'metrics',
    args: ['<project_id>', '<name>'],
    options: synopsis(METRIC_FLAGS),
    summary: 'One metric as time buckets: count, sum, min, max, avg (interval 300, 5m, 1h…).',
    async run({ client, args, options }) {
      const query = queryString(['name', ...METRIC_FLAGS], { ...options.query, name: args[1] })
      const path = `/api/v1/projects/${id(args[0]!)}/metrics${query}`
      const json = (await client.request('GET', path)) as MetricSeriesJson
      return { json, human: () => metricTable(json) }
    },
  },
  {
    name: 'traces',
    args: ['<project_id>'],
    options: synopsis(TRACE_FLAGS),
    summary: 'Recent root spans (default kinds server and browser), newest first.',
    async run({ client, args, options }) {
      const path = `/api/v1/projects/${id(args[0]!)}/traces${queryString(TRACE_FLAGS, options.query ?? {})}`
      const json = (await client.request('GET', path)) as {
        traces: SpanJson[]
        next_cursor: string | null
      }
      return { json, human: () => traceListTable(json.traces) + more(json.next_cursor) }
    },
  },
  {
    name: 'trace',
    args: ['<project_id>', '<trace_id>'],
    summary:
      "One trace as an indented span tree (start offset, duration), then the trace's events.",
    async run({ client, args }) {
      const path = `/api/v1/projects/${id(args[0]!)}/traces/${id(args[1]!)}`
      const json = (await client.request('GET', path)) as TraceJson
      return { json, human: () => traceTree(json) }
    },
  },
]
