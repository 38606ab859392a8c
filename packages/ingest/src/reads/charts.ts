import type { LatencyBucket, LatencySeries } from '@tis/schema'
import { type EngineResponse, json } from '../http'
import type { ProjectRecord, ReadStore, TransactionLatencyBucket } from '../ports'
import type { QueryResult } from './query-fields'
import { finiteOrNull } from './stored-values'
import { everyBucket, parseMetricQuery } from './window-query'

type RawQuery = Readonly<Record<string, string | undefined>>

/** Hourly buckets of `GET …/issues?sparkline=24h`. */
export const SPARKLINE_HOURS = 24
const HOUR_MS = 3_600_000

/** `sparkline` of `GET …/issues`: absent (no sparklines) or `24h`. */
export function parseSparkline(raw: RawQuery): QueryResult<boolean> {
  const value = raw['sparkline']
  if (value === undefined) return { ok: true, value: false }
  if (value === '24h') return { ok: true, value: true }
  return { ok: false, errors: ['sparkline must be 24h'] }
}

/**
 * The sparkline window at `now`: 24 whole UTC hours, the last being the current hour (so its
 * count is of the hour so far).
 */
export function sparklineWindow(now: Date): { since: Date; until: Date } {
  const until = Math.floor(now.getTime() / HOUR_MS) * HOUR_MS + HOUR_MS
  return { since: new Date(until - SPARKLINE_HOURS * HOUR_MS), until: new Date(until) }
}

/** Adds `sparkline` (24 hourly counts, oldest first) to each issue, from one grouped read. */
export async function withSparklines<I extends { id: string }>(
  store: Pick<ReadStore, 'issueActivity'>,
  projectId: string,
  issues: readonly I[],
  now: Date,
): Promise<(I & { sparkline: number[] })[]> {
  const { since, until } = sparklineWindow(now)
  const buckets = issues.length
    ? await store.issueActivity({
        projectId,
        issueIds: issues.map((i) => i.id),
        since,
        until,
        intervalSeconds: HOUR_MS / 1000,
      })
    : []
  const counts = new Map<string, number[]>()
  for (const b of buckets) {
    const k = Math.round((b.start.getTime() - since.getTime()) / HOUR_MS)
    if (k < 0 || k >= SPARKLINE_HOURS) continue
    const row = counts.get(b.issueId) ?? new Array<number>(SPARKLINE_HOURS).fill(0)
    row[k] = b.count
    counts.set(b.issueId, row)
  }
  return issues.map((i) => ({
    ...i,
    sparkline: counts.get(i.id) ?? new Array<number>(SPARKLINE_HOURS).fill(0),
  }))
}

/** Every bucket of `[since, until)` oldest first; empty buckets count 0 with null timings. */
export function latencyBucketsJson(
  buckets: readonly TransactionLatencyBucket[],
  since: Date,
  until: Date,
  intervalSeconds: number,
): LatencyBucket[] {
  return everyBucket(buckets, since, until, intervalSeconds, (b) => ({
    count: b?.count ?? 0,
    error_count: b?.errorCount ?? 0,
    p50_ms: finiteOrNull(b?.p50),
    p95_ms: finiteOrNull(b?.p95),
    p99_ms: finiteOrNull(b?.p99),
    avg_ms: finiteOrNull(b?.avg),
  }))
}

/**
 * `GET …/transactions/latency`: p50/p95/p99, count and errors per time bucket, of one name or
 * of every transaction. `since`, `until`, `interval`, `environment` and `release` follow the
 * metric read's rules exactly (the same parser checks them); `name` is optional here.
 */
export async function transactionLatency(
  store: Pick<ReadStore, 'transactionLatency'>,
  project: ProjectRecord,
  raw: RawQuery,
  now: Date,
): Promise<EngineResponse> {
  const name = raw['name']
  const parsed = parseMetricQuery(project.id, { ...raw, name: name ?? 'all' }, now)
  if (!parsed.ok) return json(422, { errors: parsed.errors })
  const { since, until, intervalSeconds, environment, release } = parsed.value
  const buckets = await store.transactionLatency({
    projectId: project.id,
    since,
    until,
    intervalSeconds,
    ...(name === undefined ? {} : { name }),
    ...(environment === undefined ? {} : { environment }),
    ...(release === undefined ? {} : { release }),
  })
  const answer: LatencySeries = {
    name: name ?? null,
    since: since.toISOString(),
    until: until.toISOString(),
    interval_seconds: intervalSeconds,
    buckets: latencyBucketsJson(buckets, since, until, intervalSeconds),
  }
  return json(200, answer)
}
