import type autocannon from 'autocannon'
import { isMetered, runCpu } from './ingest-load'

// The ingest bench's printed report: one table row per run, notes (checked: every note must say
// 0 acknowledged rows are missing) and summary lines.

/** One row of the printed table. */
export interface Row {
  handler: string
  'req/s': number
  'p50 ms': number
  'p99 ms': number
  '2xx': number
  errors: number
  'vs no-op': string
  /** Processor µs per request of the HTTP server process. */
  'server µs/req'?: number
  /** Processor µs per request of PostgreSQL (postmaster and backends). */
  'pg µs/req'?: number
}

/** What the runs print: the table's rows, notes and summary lines. */
export interface IngestReport {
  readonly rows: Row[]
  readonly notes: string[]
  readonly summary: string[]
}

/** The table row of run `r`; `baseline` is the no-op's req/s. */
export function row(handler: string, r: autocannon.Result, baseline?: number): Row {
  const cpu = isMetered(r) ? runCpu(r) : undefined
  return {
    handler,
    'req/s': Math.round(r.requests.average),
    'p50 ms': r.latency.p50,
    'p99 ms': r.latency.p99,
    '2xx': r['2xx'],
    errors: r.errors + r.non2xx + r.timeouts,
    'vs no-op': baseline ? `${((r.requests.average / baseline) * 100).toFixed(0)}%` : '100%',
    ...(cpu ? { 'server µs/req': cpu.server } : {}),
    ...(cpu?.postgres != null ? { 'pg µs/req': cpu.postgres } : {}),
  }
}

/** A run's latency, for figure notes. */
export const latency = (r: autocannon.Result) => `p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms`
