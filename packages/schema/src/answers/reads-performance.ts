import * as z from 'zod'
import {
  component,
  dateTimeField,
  nullableNumber,
  nullableString,
  storedIntegerField,
} from './common'
import { MAX_METRIC_BUCKETS, MAX_PAGE_SIZE } from './reads-limits'

// The performance reads' answers: transactions per name, latency and metric time buckets.

/** One transaction name's count, errors and timings in the window (`transactionJson`). */
export const transactionSchema = component(
  'Transaction',
  z.strictObject({
    name: z.string(),
    count: storedIntegerField,
    error_count: storedIntegerField,
    error_rate: z.number().min(0).max(1).meta({ description: 'error_count / count' }),
    p50_ms: nullableNumber.meta({ description: 'Interpolated percentile of `duration_ms`.' }),
    p95_ms: nullableNumber,
    p99_ms: nullableNumber,
    avg_ms: nullableNumber,
  }),
  'The transactions of one name (`transaction_name`, else `message`) in the window. An error is a transaction whose HTTP status code is 500 or more, or whose level is `error` or `fatal`; the status code is the first of `context.status_code`, `context.http_status`, `context.http.status_code`, `context.status`, `context.response.status_code`, `context.response.status` that is an integer (or three-digit string) from 100 to 599.',
)
/** A transaction summary as the read API answers it. */
export type Transaction = z.output<typeof transactionSchema>

/** The answer of `GET …/transactions`. */
export const transactionListSchema = component(
  'TransactionList',
  z.strictObject({
    since: dateTimeField,
    until: dateTimeField,
    transactions: z
      .array(transactionSchema)
      .max(MAX_PAGE_SIZE)
      .meta({ description: 'Busiest first (count desc, then name).' }),
  }),
)
/** The answer of `GET …/transactions`. */
export type TransactionList = z.output<typeof transactionListSchema>

/** One bucket of a metric (`metricBucketsJson`). */
export const metricBucketSchema = component(
  'MetricBucket',
  z.strictObject({
    start: dateTimeField,
    count: storedIntegerField,
    sum: nullableNumber,
    min: nullableNumber,
    max: nullableNumber,
    avg: nullableNumber,
  }),
  'The metric events with `occurred_at` in [start, start + interval). The value of an event is `context.value`, else its `duration_ms`; events without either count but are not aggregated. An empty bucket has count 0 and null aggregates.',
)
/** One bucket of a metric. */
export type MetricBucket = z.output<typeof metricBucketSchema>

/** One bucket of transaction latency (`latencyBucketsJson`). */
export const latencyBucketSchema = component(
  'LatencyBucket',
  z.strictObject({
    start: dateTimeField,
    count: storedIntegerField,
    error_count: storedIntegerField,
    p50_ms: nullableNumber,
    p95_ms: nullableNumber,
    p99_ms: nullableNumber,
    avg_ms: nullableNumber,
  }),
  'The transactions with `occurred_at` in [start, start + interval): count, errors (as in Transaction) and interpolated percentiles and average of `duration_ms`. An empty bucket has count 0 and null timings.',
)
/** One bucket of transaction latency. */
export type LatencyBucket = z.output<typeof latencyBucketSchema>

const buckets = <T extends z.ZodType>(item: T) =>
  z.array(item).max(MAX_METRIC_BUCKETS).meta({
    description: 'Every bucket of the window from `since`, oldest first, empty ones included.',
  })

/** The answer of `GET …/transactions/latency`. */
export const latencySeriesSchema = component(
  'LatencySeries',
  z.strictObject({
    name: nullableString.meta({
      description: 'The transaction name; null for all transactions.',
    }),
    since: dateTimeField,
    until: dateTimeField,
    interval_seconds: z.int().min(1),
    buckets: buckets(latencyBucketSchema),
  }),
)
/** The answer of `GET …/transactions/latency`. */
export type LatencySeries = z.output<typeof latencySeriesSchema>

/** The answer of `GET …/metrics`. */
export const metricSeriesSchema = component(
  'MetricSeries',
  z.strictObject({
    name: z.string(),
    since: dateTimeField,
    until: dateTimeField,
    interval_seconds: z.int().min(1),
    buckets: buckets(metricBucketSchema),
  }),
)
/** The answer of `GET …/metrics`. */
export type MetricSeries = z.output<typeof metricSeriesSchema>
