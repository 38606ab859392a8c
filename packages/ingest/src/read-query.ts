import { EVENT_TYPES, isRfc3339DateTime, parseDateTime } from '@tis/schema'
import { z } from 'zod'
import { type EngineResponse, json } from './http'
import type {
  CheckInQuery,
  DeploymentQuery,
  EventQuery,
  IssueQuery,
  IssueStatus,
  KeysetCursor,
  MetricQuery,
  MonitorQuery,
  RootSpanQuery,
  TransactionQuery,
} from './ports'
import { isValidDate } from './stored-values'

/** The first instant the store can hold: 0001-01-01T00:00:00Z. */
const FIRST_INSTANT = Date.parse('0001-01-01T00:00:00.000Z')

/** Page size when `limit` is absent. */
export const DEFAULT_PAGE_SIZE = 50
/** The largest page; a larger `limit` is capped to it. */
export const MAX_PAGE_SIZE = 200

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const MAX_FILTER = 1_024

/** Encodes a keyset position as an opaque base64url token. */
export function encodeCursor(cursor: KeysetCursor): string {
  const text = `${cursor.at.getTime()}.${cursor.id}`
  return btoa(text).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '')
}

/** Decodes a token of {@link encodeCursor}; `null` for anything else. */
export function decodeCursor(token: string): KeysetCursor | null {
  if (!/^[A-Za-z0-9_-]{1,128}$/.test(token)) return null
  let text: string
  try {
    text = atob(token.replaceAll('-', '+').replaceAll('_', '/'))
  } catch {
    return null
  }
  const match = /^(-?\d{1,15})\.([0-9a-f-]{36})$/i.exec(text)
  if (!match || !UUID.test(match[2]!)) return null
  const at = new Date(Number(match[1]))
  return Number.isNaN(at.getTime()) ? null : { at, id: match[2]!.toLowerCase() }
}

/** Text stored in PostgreSQL cannot hold NUL, so no filter can match one: say so. */
const noNul = (s: string) => !s.includes('\u0000')
const NUL_MESSAGE = 'must not contain a NUL character'

const filter = z
  .string()
  .min(1, 'must not be empty')
  .max(MAX_FILTER, `must be at most ${MAX_FILTER} characters`)
  .refine(noNul, NUL_MESSAGE)
  .optional()

const limit = z
  .string()
  .regex(/^\d{1,9}$/, 'must be a positive integer')
  .transform(Number)
  .refine((n) => n >= 1, 'must be a positive integer')
  .transform((n) => Math.min(n, MAX_PAGE_SIZE))
  .optional()

const cursor = z
  .string()
  .transform((token, ctx) => {
    const decoded = decodeCursor(token)
    if (!decoded) ctx.addIssue({ code: 'custom', message: 'is not a cursor of this list' })
    return decoded ?? undefined
  })
  .optional()

const time = z
  .string()
  .refine(isRfc3339DateTime, 'must be an RFC 3339 date-time')
  .transform(parseDateTime)
  .optional()

const uuid = z.string().regex(UUID, 'must be a UUID').optional()

const ISSUE_QUERY = z.object({
  status: z
    .enum(['unresolved', 'resolved', 'ignored', 'all'], {
      error: 'must be one of unresolved, resolved, ignored, all',
    })
    .default('unresolved'),
  environment: filter,
  release: filter,
  q: filter,
  limit,
  cursor,
})

const EVENT_QUERY = z.object({
  event_type: z.enum(EVENT_TYPES, { error: `must be one of ${EVENT_TYPES.join(', ')}` }).optional(),
  level: filter,
  environment: filter,
  release: filter,
  trace_id: filter,
  request_id: filter,
  session_id: filter,
  user_id: filter,
  issue_id: uuid,
  q: filter,
  since: time,
  until: time,
  limit,
  cursor,
})

const MONITOR_QUERY = z.object({ environment: filter, slug: filter, limit, cursor })

const CHECK_IN_QUERY = z.object({ status: filter, since: time, until: time, limit, cursor })

const DEPLOYMENT_QUERY = z.object({
  environment: filter,
  release: filter,
  repository: filter,
  limit,
  cursor,
})

const TRANSACTION_QUERY = z.object({
  since: time,
  until: time,
  environment: filter,
  release: filter,
  limit,
})

/** Window of the performance reads when `since` is absent: the 24 hours before `until`. */
export const DEFAULT_WINDOW_SECONDS = 86_400
/** The most buckets one metric read returns. */
export const MAX_METRIC_BUCKETS = 1_440
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

const METRIC_QUERY = z.object({
  name: z
    .string({ error: 'is required' })
    .min(1, 'must not be empty')
    .max(MAX_FILTER, `must be at most ${MAX_FILTER} characters`)
    .refine(noNul, NUL_MESSAGE),
  since: time,
  until: time,
  interval,
  environment: filter,
  release: filter,
})

const ROOT_SPAN_QUERY = z.object({
  kind: filter,
  since: time,
  until: time,
  environment: filter,
  release: filter,
  q: filter,
  limit,
  cursor,
})

/** A parsed query, or the 422 messages, each naming its parameter. */
export type QueryResult<T> = { ok: true; value: T } | { ok: false; errors: string[] }

type RawQuery = Readonly<Record<string, string | undefined>>

function parse<S extends z.ZodType>(schema: S, raw: RawQuery): QueryResult<z.output<S>> {
  const result = schema.safeParse(raw)
  if (result.success) return { ok: true, value: result.data }
  return {
    ok: false,
    errors: result.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`),
  }
}

/** Drops `undefined` fields (the port's types are exact optional properties). */
function defined<T extends object>(value: { [K in keyof T]-?: T[K] | undefined }): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T
}

/** Parses the query of `GET …/issues`. */
export function parseIssueQuery(projectId: string, raw: RawQuery): QueryResult<IssueQuery> {
  const parsed = parse(ISSUE_QUERY, raw)
  if (!parsed.ok) return parsed
  const v = parsed.value
  const status: IssueStatus | null = v.status === 'all' ? null : v.status
  return {
    ok: true,
    value: defined<IssueQuery>({
      projectId,
      status,
      environment: v.environment,
      release: v.release,
      q: v.q,
      after: v.cursor,
      limit: v.limit ?? DEFAULT_PAGE_SIZE,
    }),
  }
}

/** Parses the query of `GET …/events`. */
export function parseEventQuery(projectId: string, raw: RawQuery): QueryResult<EventQuery> {
  const parsed = parse(EVENT_QUERY, raw)
  if (!parsed.ok) return parsed
  const v = parsed.value
  return {
    ok: true,
    value: defined<EventQuery>({
      projectId,
      eventType: v.event_type,
      level: v.level,
      environment: v.environment,
      release: v.release,
      traceId: v.trace_id,
      requestId: v.request_id,
      sessionId: v.session_id,
      userId: v.user_id,
      issueId: v.issue_id?.toLowerCase(),
      q: v.q,
      since: v.since,
      until: v.until,
      after: v.cursor,
      limit: v.limit ?? DEFAULT_PAGE_SIZE,
    }),
  }
}

/** Parses the query of `GET …/monitors`. */
export function parseMonitorQuery(projectId: string, raw: RawQuery): QueryResult<MonitorQuery> {
  const parsed = parse(MONITOR_QUERY, raw)
  if (!parsed.ok) return parsed
  const v = parsed.value
  return {
    ok: true,
    value: defined<MonitorQuery>({
      projectId,
      environment: v.environment,
      slug: v.slug,
      after: v.cursor,
      limit: v.limit ?? DEFAULT_PAGE_SIZE,
    }),
  }
}

/** Parses the query of `GET …/monitors/:monitor_id/check_ins` (the monitor is already known). */
export function parseCheckInQuery(
  projectId: string,
  monitorId: string,
  raw: RawQuery,
): QueryResult<CheckInQuery> {
  const parsed = parse(CHECK_IN_QUERY, raw)
  if (!parsed.ok) return parsed
  const v = parsed.value
  if (v.since && v.until && v.since.getTime() >= v.until.getTime()) {
    return { ok: false, errors: ['since must be before until'] }
  }
  return {
    ok: true,
    value: defined<CheckInQuery>({
      projectId,
      monitorId,
      status: v.status,
      since: v.since,
      until: v.until,
      after: v.cursor,
      limit: v.limit ?? DEFAULT_PAGE_SIZE,
    }),
  }
}

/**
 * One keyset page of a list read: fetches one row more than `limit` so the last page has no
 * cursor, and encodes the last row's position as `next`. A failed parse is the 422 answer.
 */
export async function keysetPage<Q extends { limit: number }, R>(
  parsed: QueryResult<Q>,
  fetch: (query: Q) => Promise<readonly R[]>,
  key: (row: R) => KeysetCursor,
): Promise<{ rows: readonly R[]; next: string | null } | EngineResponse> {
  if (!parsed.ok) return json(422, { errors: parsed.errors })
  const { limit } = parsed.value
  const rows = await fetch({ ...parsed.value, limit: limit + 1 })
  const shown = rows.slice(0, limit)
  const last = shown[shown.length - 1]
  const position = last ? key(last) : undefined
  // A row whose time JavaScript cannot represent (a BC date in an old database) has no keyset
  // position to continue from: such rows sort last, so the list ends there.
  const more = rows.length > limit && position !== undefined && isValidDate(position.at)
  return { rows: shown, next: more ? encodeCursor(position) : null }
}

/** Parses the query of `GET …/deployments`. */
export function parseDeploymentQuery(
  projectId: string,
  raw: RawQuery,
): QueryResult<DeploymentQuery> {
  const parsed = parse(DEPLOYMENT_QUERY, raw)
  if (!parsed.ok) return parsed
  const v = parsed.value
  return {
    ok: true,
    value: defined<DeploymentQuery>({
      projectId,
      environment: v.environment,
      release: v.release,
      repository: v.repository,
      deployedBefore: undefined,
      after: v.cursor,
      limit: v.limit ?? DEFAULT_PAGE_SIZE,
    }),
  }
}

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

/** Span kinds `GET …/traces` lists when `kind` is absent. */
export const ROOT_SPAN_KINDS = ['server', 'browser'] as const

/** Parses the query of `GET …/traces`. */
export function parseRootSpanQuery(projectId: string, raw: RawQuery): QueryResult<RootSpanQuery> {
  const parsed = parse(ROOT_SPAN_QUERY, raw)
  if (!parsed.ok) return parsed
  const v = parsed.value
  if (v.since && v.until && v.since.getTime() >= v.until.getTime()) {
    return { ok: false, errors: ['since must be before until'] }
  }
  return {
    ok: true,
    value: defined<RootSpanQuery>({
      projectId,
      kinds: v.kind === undefined ? ROOT_SPAN_KINDS : [v.kind],
      since: v.since,
      until: v.until,
      environment: v.environment,
      release: v.release,
      q: v.q,
      after: v.cursor,
      limit: v.limit ?? DEFAULT_PAGE_SIZE,
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
