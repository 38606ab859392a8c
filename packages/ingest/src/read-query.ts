import { EVENT_TYPES, isRfc3339DateTime, parseDateTime } from '@tis/schema'
import { z } from 'zod'
import type {
  DeploymentQuery,
  EventQuery,
  IssueQuery,
  IssueStatus,
  KeysetCursor,
  MonitorQuery,
} from './ports'

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

const filter = z
  .string()
  .min(1, 'must not be empty')
  .max(MAX_FILTER, `must be at most ${MAX_FILTER} characters`)
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

const MONITOR_QUERY = z.object({ environment: filter, limit, cursor })

const DEPLOYMENT_QUERY = z.object({
  environment: filter,
  release: filter,
  repository: filter,
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
      after: v.cursor,
      limit: v.limit ?? DEFAULT_PAGE_SIZE,
    }),
  }
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
