// Human-readable output of the performance reads: transactions, metric buckets, traces.
import type {
  MetricBucket,
  MetricSeries,
  Span,
  TraceDetail,
  Transaction,
  TransactionList,
} from '@tis/schema'
import { eventTable, table } from './format'

/** One transaction name's timings as the read API returns them. */
export type TransactionJson = Transaction

/** `GET …/transactions`. */
export type TransactionListJson = TransactionList

/** One metric bucket as the read API returns it. */
export type MetricBucketJson = MetricBucket

/** `GET …/metrics`. */
export type MetricSeriesJson = MetricSeries

/** A span as the read API returns it. */
export type SpanJson = Span

/** `GET …/traces/:trace_id`. */
export type TraceJson = TraceDetail

/** A number for a table cell: at most one decimal, `-` for null. */
export function num(value: number | null): string {
  return value === null ? '-' : String(Math.round(value * 10) / 10)
}

/** Milliseconds for people: `12 ms`, `250.5 ms`, `-` when unknown. */
export const ms = (value: number | null) => (value === null ? '-' : `${num(value)} ms`)

/** Transaction names with their counts, error rate and timings, busiest first. */
export function transactionTable(list: TransactionListJson): string {
  const rows = list.transactions.map((t) => [
    t.name,
    String(t.count),
    String(t.error_count),
    `${num(t.error_rate * 100)}%`,
    num(t.p50_ms),
    num(t.p95_ms),
    num(t.p99_ms),
    num(t.avg_ms),
  ])
  const header = ['NAME', 'COUNT', 'ERRORS', 'ERROR RATE', 'P50 MS', 'P95 MS', 'P99 MS', 'AVG MS']
  return `From ${list.since} to ${list.until}\n${table(header, rows)}`
}

/** A metric's buckets, oldest first; empty buckets show `-` aggregates. */
export function metricTable(series: MetricSeriesJson): string {
  const rows = series.buckets.map((b) => [
    b.start,
    String(b.count),
    num(b.sum),
    num(b.min),
    num(b.max),
    num(b.avg),
  ])
  return `${series.name}: ${series.interval_seconds} s buckets from ${series.since} to ${series.until}\n${table(['START', 'COUNT', 'SUM', 'MIN', 'MAX', 'AVG'], rows)}`
}

/** Root spans, newest first. */
export function traceListTable(spans: readonly SpanJson[]): string {
  return table(
    ['STARTED', 'DURATION', 'KIND', 'TRACE ID', 'NAME'],
    spans.map((s) => [
      s.started_at ?? '-',
      ms(s.duration_ms),
      s.kind ?? '-',
      s.trace_id ?? '-',
      s.name ?? '(unnamed)',
    ]),
  )
}

/**
 * A trace as an indented tree: one line per span in start order, indented two spaces per depth,
 * with its kind, start offset from the trace start and duration; then the trace's events.
 */
export function traceTree(trace: TraceJson): string {
  const start = trace.started_at === null ? 0 : Date.parse(trace.started_at)
  const root = trace.root
  const lines = [
    `trace:    ${trace.trace_id}`,
    `root:     ${root ? `${root.name ?? '(unnamed)'} (${root.kind ?? '-'}), ${ms(trace.duration_ms)}` : '-'}`,
    `started:  ${trace.started_at ?? '-'}`,
    `ended:    ${trace.ended_at ?? '-'}`,
    `spans:    ${trace.span_count}${trace.truncated ? ' (truncated: the trace has more)' : ''}`,
    '',
    ...trace.spans.map(
      (s) =>
        `${'  '.repeat(s.depth)}${s.name ?? '(unnamed)'} (${s.kind ?? '-'})  +${num(Date.parse(s.started_at ?? '') - start)} ms  ${ms(s.duration_ms)}`,
    ),
  ]
  if (trace.spans.length === 0) lines.push('(no spans)')
  return `${lines.join('\n')}\n\nevents:\n${eventTable(trace.events)}`
}
