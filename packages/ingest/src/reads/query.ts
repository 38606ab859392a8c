import { EVENT_TYPES, ISSUE_SORTS, MAX_SEARCH_LENGTH, type SearchFilter } from '@tis/schema'
import { z } from 'zod'
import type {
  CheckInQuery,
  DeploymentQuery,
  EventQuery,
  IssueQuery,
  IssueStatus,
  MonitorQuery,
  RootSpanQuery,
} from '../ports'
import {
  cursor,
  DEFAULT_PAGE_SIZE,
  defined,
  filter,
  limit,
  parse,
  type QueryResult,
  type RawQuery,
  time,
  uuid,
} from './query-fields'
import { decodeIssueCursor, searchesStatus } from './search'

// The query strings of the read API's lists (issues, events, monitors, check-ins, deployments,
// traces), parsed into the read port's queries.

const d = <T extends z.ZodType>(field: T, description: string) => field.meta({ description })
const exact = (name: string) => d(filter, `Exact ${name}.`)

/** `query=`: parsed by the search syntax, which answers 400 itself (docs/issues.md). */
const searchQuery = (keys: string) =>
  z
    .string()
    .optional()
    .meta({
      description: `Search terms, all of which hold: ${keys}, \`!\` negating a term, "quoted values", \`key:[a,b]\` for any of a list, and free text (at most ${MAX_SEARCH_LENGTH} characters). A term the syntax does not know is a 400 naming it. See docs/issues.md#search-syntax.`,
    })

/** The query of `GET …/issues`. */
export const ISSUE_QUERY = z.object({
  status: z
    .enum(['unresolved', 'resolved', 'ignored', 'all'], {
      error: 'must be one of unresolved, resolved, ignored, all',
    })
    .optional()
    .meta({
      description:
        'Default `unresolved`, unless `query` has an `is:` status term; given with one, both hold.',
    }),
  query: searchQuery(
    '`is:` (unresolved, resolved, ignored), `level:`, `release:`, `environment:`, `user.id:`, `times_seen:` (`>N`, `<N`), `first_seen:` / `last_seen:` (`-24h`, `>2026-11-01`)',
  ),
  sort: z
    .enum(ISSUE_SORTS, { error: `must be one of ${ISSUE_SORTS.join(', ')}` })
    .default('last_seen')
    .meta({ description: 'The order, each descending: default `last_seen`.' }),
  environment: d(filter, 'Issues with an event in this environment.'),
  release: d(filter, 'Issues with an event in this release.'),
  q: d(filter, 'Case-insensitive substring of the title.'),
  sparkline: d(
    z.enum(['24h'], { error: 'must be 24h' }).optional(),
    '`24h` adds `sparkline` to each issue: its events in each of the last 24 whole UTC hours (one grouped read for the page).',
  ),
  limit,
  cursor: z
    .string()
    .optional()
    .meta({ description: 'The `next_cursor` of the previous page in the same `sort` (opaque).' }),
})

/** The query of `GET …/events`. */
export const EVENT_QUERY = z.object({
  event_type: d(
    z.enum(EVENT_TYPES, { error: `must be one of ${EVENT_TYPES.join(', ')}` }).optional(),
    'One event type.',
  ),
  level: exact('level'),
  environment: exact('environment'),
  release: exact('release'),
  trace_id: exact('trace id'),
  request_id: exact('request id'),
  session_id: exact('session id'),
  user_id: exact('user id'),
  issue_id: d(uuid, 'Events of one issue.'),
  q: d(filter, 'Case-insensitive substring of the message.'),
  query: searchQuery(
    '`level:`, `release:`, `environment:`, `user.id:`, `timestamp:` (`-24h`, `>2026-11-01`)',
  ),
  since: d(time, 'occurred_at at or after (RFC 3339).'),
  until: d(time, 'occurred_at before (RFC 3339).'),
  limit,
  cursor,
})

/** The query of `GET …/monitors`. */
export const MONITOR_QUERY = z.object({
  environment: exact('environment'),
  slug: d(filter, 'Exact slug: the monitors of one job, one per environment.'),
  limit,
  cursor,
})

/** The query of `GET …/monitors/:monitor_id/check_ins`. */
export const CHECK_IN_QUERY = z.object({
  status: d(filter, 'Exact status as sent (`ok`, `error`, `in_progress`, …).'),
  since: d(time, 'occurred_at at or after (RFC 3339).'),
  until: d(time, 'occurred_at before (RFC 3339).'),
  limit,
  cursor,
})

/** The query of `GET …/deployments`. */
export const DEPLOYMENT_QUERY = z.object({
  environment: exact('environment'),
  release: exact('release'),
  repository: exact('repository (owner/name)'),
  limit,
  cursor,
})

/** The query of `GET …/traces`. */
export const ROOT_SPAN_QUERY = z.object({
  kind: d(filter, 'Span kind of the roots; default `server` and `browser`.'),
  since: d(time, 'started_at at or after (RFC 3339).'),
  until: d(time, 'started_at before (RFC 3339).'),
  environment: exact('environment'),
  release: exact('release'),
  q: d(filter, 'Case-insensitive substring of the span name.'),
  limit,
  cursor,
})

/**
 * Parses the query of `GET …/issues`; `search` is its `query=` parsed already (a 400 of its own).
 */
export function parseIssueQuery(
  projectId: string,
  raw: RawQuery,
  search?: readonly SearchFilter[],
): QueryResult<IssueQuery> {
  const parsed = parse(ISSUE_QUERY, raw)
  if (!parsed.ok) return parsed
  const v = parsed.value
  const after = v.cursor === undefined ? undefined : decodeIssueCursor(v.cursor, v.sort)
  if (after === null) {
    return { ok: false, errors: [`cursor is not a cursor of this list in sort=${v.sort}`] }
  }
  const requested = v.status ?? (searchesStatus(search) ? 'all' : 'unresolved')
  const status: IssueStatus | null = requested === 'all' ? null : requested
  return {
    ok: true,
    value: defined<IssueQuery>({
      projectId,
      status,
      environment: v.environment,
      release: v.release,
      q: v.q,
      search,
      sort: v.sort === 'last_seen' ? undefined : v.sort,
      after,
      limit: v.limit ?? DEFAULT_PAGE_SIZE,
    }),
  }
}

/** Parses the query of `GET …/events`. */
export function parseEventQuery(
  projectId: string,
  raw: RawQuery,
  search?: readonly SearchFilter[],
): QueryResult<EventQuery> {
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
      search,
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
