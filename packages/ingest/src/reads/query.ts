import { EVENT_TYPES } from '@tis/schema'
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

// The query strings of the read API's lists (issues, events, monitors, check-ins, deployments,
// traces), parsed into the read port's queries.

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
