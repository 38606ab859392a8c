// Human-readable output of the performance reads: transactions, metric buckets, traces.
import { type EventJson, eventTable, table } from './format'

/** One transaction name's timings as the read API returns them. */
export interface TransactionJson {
  readonly name: string
  readonly count: number
  readonly error_count: number
  readonly error_rate: number
  readonly p50_ms: number | null
  readonly p95_ms: number | null
  readonly p99_ms: number | null
  readonly avg_ms: number | null
}

/** `GET …/transactions`. */
export interface TransactionListJson {
  readonly since: string
  readonly until: string
  readonly transactions: readonly TransactionJson[]
}

/** One metric bucket as the read API returns it. */
export interface MetricBucketJson {
  readonly start: string
  readonly count: number
  readonly sum: number | null
  readonly min: number | null
  readonly max: number | null
  readonly avg: number | null
}

/** `GET …/metrics`. */
export interface MetricSeriesJson {
  readonly name: string
  readonly since: string
  readonly until: string
  readonly interval_seconds: number
  readonly buckets: readonly MetricBucketJson[]
}

/** A span as the read API returns it. */
export interface SpanJson {
  readonly id: string
  readonly trace_id: string | null
  readonly span_id: string | null
  readonly parent_span_id: string | null
  readonly name: string | null
  readonly kind: string | null
  readonly started_at: string
  readonly ended_at: string | null
  readonly duration_ms: number | null
}

/** `GET …/traces/:trace_id`. */
export interface TraceJson {
  readonly trace_id: string
  readonly root: SpanJson | null
  readonly duration_ms: number | null
  readonly started_at: string | null
  readonly ended_at: string | null
  readonly span_count: number
  readonly truncated: boolean
  readonly spans: readonly (SpanJson & { readonly depth: number })[]
  readonly events: readonly EventJson[]
}

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
      s.started_at,
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
        `${'  '.repeat(s.depth)}${s.name ?? '(unnamed)'} (${s.kind ?? '-'})  +${num(Date.parse(s.started_at) - start)} ms  ${ms(s.duration_ms)}`,
    ),
  ]
  if (trace.spans.length === 0) lines.push('(no spans)')
  return `${lines.join('\n')}\n\nevents:\n${eventTable(trace.events)}`
}
