import { MAX_METRIC_BUCKETS } from '@tis/schema'
import { z } from 'zod'
import type { MetricQuery, TransactionQuery } from '../ports'
import {
  DEFAULT_PAGE_SIZE,
  defined,
  filter,
  limit,
  MAX_FILTER,
  NUL_MESSAGE,
  noNul,
  parse,
  type QueryResult,
  type RawQuery,
  time,
} from './query-fields'

// The query strings of the performance reads over a time window (transactions, metrics), and the
// buckets they answer.

/** The first instant the store can hold: 0001-01-01T00:00:00Z. */
const FIRST_INSTANT = Date.parse('0001-01-01T00:00:00.000Z')

const d = <T extends z.ZodType>(field: T, description: string) => field.meta({ description })
const since = d(time, 'occurred_at at or after (RFC 3339); default 24 hours before `until`.')
const until = d(time, 'occurred_at before (RFC 3339); default now.')

/** The query of `GET …/transactions`. */
export const TRANSACTION_QUERY = z.object({
  since,
  until,
  environment: d(filter, 'Exact environment.'),
  release: d(filter, 'Exact release.'),
  limit,
})

/** Window of the performance reads when `since` is absent: the 24 hours before `until`. */
export const DEFAULT_WINDOW_SECONDS = 86_400
/** The most buckets one metric read returns. */
export { MAX_METRIC_BUCKETS }

/** Default bucket widths, smallest first: the first giving at most 120 buckets is used. */
const NICE_INTERVALS = [60, 300, 900, 3_600, 21_600, 86_400, 604_800]
const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3_600, d: 86_400 }

const interval = z
  .string()
  .transform((text, ctx) => {
    const match = /^(\d{1,9})([smhd]?)$/.exec(text)
    const seconds = match ? Number(match[1]) * (UNIT_SECONDS[match[2] || 's'] ?? 1) : 0
    if (seconds < 1 || seconds > 31_536_000) {
      ctx.addIssue({
        code: 'custom',
        message:
          'must be a number of seconds (or of minutes, hours or days: 30s, 5m, 1h, 1d) up to 365 days',
      })
    }
    return seconds
  })
  .optional()
  .meta({
    pattern: '^\\d{1,9}[smhd]?$',
    description:
      'Bucket width: seconds (`300`) or with a unit (`30s`, `5m`, `1h`, `1d`), up to 365 days. Default: the first of 60, 300, 900, 3600, 21600, 86400, 604800 s giving at most 120 buckets.',
  })

/** The query of `GET …/metrics` (and, with `name` optional, of `GET …/transactions/latency`). */
export const METRIC_QUERY = z.object({
  name: z
    .string({ error: 'is required' })
    .min(1, 'must not be empty')
    .max(MAX_FILTER, `must be at most ${MAX_FILTER} characters`)
    .refine(noNul, NUL_MESSAGE)
    .meta({ description: 'The metric name (the `message` of its metric events).' }),
  since,
  until,
  interval,
  environment: d(filter, 'Exact environment.'),
  release: d(filter, 'Exact release.'),
})

/** The window `[since, until)`: until defaults to now, since to 24 hours before until. */
function window(
  v: { since?: Date | undefined; until?: Date | undefined },
  now: Date,
): QueryResult<{ since: Date; until: Date }> {
  const until = v.until ?? now
  // The default window never starts before the first instant a date-time may name (year 1).
  const since =
    v.since ?? new Date(Math.max(FIRST_INSTANT, until.getTime() - DEFAULT_WINDOW_SECONDS * 1000))
  if (since.getTime() >= until.getTime())
    return { ok: false, errors: ['since must be before until'] }
  return { ok: true, value: { since, until } }
}

/** Parses the query of `GET …/transactions`. */
export function parseTransactionQuery(
  projectId: string,
  raw: RawQuery,
  now: Date,
): QueryResult<TransactionQuery> {
  const parsed = parse(TRANSACTION_QUERY, raw)
  if (!parsed.ok) return parsed
  const v = parsed.value
  const w = window(v, now)
  if (!w.ok) return w
  return {
    ok: true,
    value: defined<TransactionQuery>({
      projectId,
      ...w.value,
      environment: v.environment,
      release: v.release,
      limit: v.limit ?? DEFAULT_PAGE_SIZE,
    }),
  }
}

/** Parses the query of `GET …/metrics`. */
export function parseMetricQuery(
  projectId: string,
  raw: RawQuery,
  now: Date,
): QueryResult<MetricQuery> {
  const parsed = parse(METRIC_QUERY, raw)
  if (!parsed.ok) return parsed
  const v = parsed.value
  const w = window(v, now)
  if (!w.ok) return w
  const span = (w.value.until.getTime() - w.value.since.getTime()) / 1000
  const intervalSeconds =
    v.interval ?? NICE_INTERVALS.find((s) => span / s <= 120) ?? NICE_INTERVALS.at(-1)!
  if (Math.ceil(span / intervalSeconds) > MAX_METRIC_BUCKETS) {
    return {
      ok: false,
      errors: [
        `interval is too small for the window: at most ${MAX_METRIC_BUCKETS} buckets (at least ${Math.ceil(span / MAX_METRIC_BUCKETS)} seconds)`,
      ],
    }
  }
  return {
    ok: true,
    value: defined<MetricQuery>({
      projectId,
      name: v.name,
      ...w.value,
      intervalSeconds,
      environment: v.environment,
      release: v.release,
    }),
  }
}

/**
 * Every bucket of `[since, until)`, oldest first, each `{ start, ...fields(stored) }` where
 * `stored` is the bucket the store returned for that start, or `undefined` for an empty one.
 */
export function everyBucket<B extends { readonly start: Date }, F extends object>(
  buckets: readonly B[],
  since: Date,
  until: Date,
  intervalSeconds: number,
  fields: (stored: B | undefined) => F,
): ({ start: string } & F)[] {
  const byStart = new Map(buckets.map((b) => [b.start.getTime(), b]))
  const out: ({ start: string } & F)[] = []
  for (let t = since.getTime(); t < until.getTime(); t += intervalSeconds * 1000) {
    out.push({ start: new Date(t).toISOString(), ...fields(byStart.get(t)) })
  }
  return out
}
