import type {
  DeploymentRecord,
  EventRecord,
  EventType,
  IgnoreCondition,
  IssueRecord,
  IssueStatus,
  MonitorRecord,
} from '@tis/ingest'
import { type Row, textOrNull } from './executor'

// The read model's columns as the read queries select them, and each row as the port's record.

/** The `issues i` columns of an {@link IssueRecord}. */
export const ISSUE_COLUMNS = `i.id::text as id, i.project_id::text as project_id, i.grouping_key, i.title,
  i.level, i.status, i.count, i.users, i.first_seen_at, i.last_seen_at, i.first_release, i.last_release,
  i.latest_event_id::text as latest_event_id, i.regression_count, i.regressed_in_release,
  (i.events_expired_at is not null and i.last_seen_at <= i.events_expired_at) as events_expired,
  i.assignee_id::text as assignee_id, i.ignore_until,
  (select u.email from users u where u.id = i.assignee_id) as assignee_email`

/** `issues.ignore_until` (jsonb: an object on PGlite, text or an object on postgres.js). */
function ignoreOf(value: unknown): IgnoreCondition | null {
  const v = (typeof value === 'string' ? JSON.parse(value) : value) as Record<
    string,
    unknown
  > | null
  if (!v || typeof v !== 'object') return null
  if (typeof v['until'] === 'string') return { until: new Date(v['until']) }
  if (typeof v['users'] === 'number') return { users: v['users'] }
  if (typeof v['count'] !== 'number') return null
  return typeof v['window_seconds'] === 'number'
    ? { count: v['count'], windowSeconds: v['window_seconds'] }
    : { count: v['count'] }
}

/** The `events e` columns of an {@link EventRecord}. */
export const EVENT_COLUMNS = `e.id::text as id, e.legacy_id, e.event_type, e.level, e.message,
  e.fingerprint, e.occurred_at, e.payload, e.issue_id::text as issue_id, e.environment,
  e.release, e.trace_id, e.request_id, e.session_id`

/** The `monitors m` columns of a {@link MonitorRecord}. */
export const MONITOR_COLUMNS = `m.id::text as id, m.slug, m.environment, m.status, m.last_status,
  m.last_check_in_at, m.expected_interval_seconds, m.last_release, m.check_in_count`

/** The `deployments d` columns of a {@link DeploymentRecord}. */
export const DEPLOYMENT_COLUMNS = `d.id::text as id, d.repository, d.environment, d.release, d.commit_sha,
  d.branch, d.deployed_at, d.pull_request_number, d.pull_request_url, d.release_url,
  d.compare_url, d.workflow_run_url, d.deployment_url, d.release_tag, d.source`

/** A row of {@link ISSUE_COLUMNS} as an issue. */
export function toIssue(row: Row): IssueRecord {
  return {
    id: row['id'] as string,
    projectId: row['project_id'] as string,
    groupingKey: row['grouping_key'] as string,
    title: row['title'] as string,
    level: row['level'] as string,
    status: row['status'] as IssueStatus,
    count: row['count'] as number,
    firstSeenAt: row['first_seen_at'] as Date,
    lastSeenAt: row['last_seen_at'] as Date,
    firstRelease: textOrNull(row, 'first_release'),
    lastRelease: textOrNull(row, 'last_release'),
    latestEventId: textOrNull(row, 'latest_event_id'),
    regressionCount: row['regression_count'] as number,
    users: row['users'] as number,
    regressedInRelease: textOrNull(row, 'regressed_in_release'),
    eventsExpired: row['events_expired'] === true,
    ignoreUntil: ignoreOf(row['ignore_until']),
    assignee:
      typeof row['assignee_id'] === 'string' && typeof row['assignee_email'] === 'string'
        ? { id: row['assignee_id'], email: row['assignee_email'] }
        : null,
  }
}

/** A row of {@link EVENT_COLUMNS} as an event. */
export function toEvent(row: Row): EventRecord {
  return {
    id: row['id'] as string,
    legacyId: row['legacy_id'] as number,
    eventType: row['event_type'] as EventType,
    level: textOrNull(row, 'level'),
    message: textOrNull(row, 'message'),
    fingerprint: textOrNull(row, 'fingerprint'),
    occurredAt: row['occurred_at'] as Date,
    payload: row['payload'] as Record<string, unknown>,
    issueId: textOrNull(row, 'issue_id'),
    environment: textOrNull(row, 'environment'),
    release: textOrNull(row, 'release'),
    traceId: textOrNull(row, 'trace_id'),
    requestId: textOrNull(row, 'request_id'),
    sessionId: textOrNull(row, 'session_id'),
  }
}

/** A row of {@link MONITOR_COLUMNS} as a monitor. */
export function toMonitor(row: Row): MonitorRecord {
  return {
    id: row['id'] as string,
    slug: row['slug'] as string,
    environment: row['environment'] as string,
    health: (row['status'] as 'ok' | 'error' | null) ?? null,
    lastStatus: row['last_status'] as string,
    lastCheckInAt: row['last_check_in_at'] as Date,
    expectedIntervalSeconds: row['expected_interval_seconds'] as number,
    lastRelease: textOrNull(row, 'last_release'),
    checkInCount: Number(row['check_in_count']),
  }
}

/** A row of {@link DEPLOYMENT_COLUMNS} as a deployment. */
export function toDeployment(row: Row): DeploymentRecord {
  return {
    id: row['id'] as string,
    repository: row['repository'] as string,
    environment: row['environment'] as string,
    release: row['release'] as string,
    commitSha: row['commit_sha'] as string,
    branch: textOrNull(row, 'branch'),
    deployedAt: row['deployed_at'] as Date,
    pullRequestNumber: textOrNull(row, 'pull_request_number'),
    pullRequestUrl: textOrNull(row, 'pull_request_url'),
    releaseUrl: textOrNull(row, 'release_url'),
    compareUrl: textOrNull(row, 'compare_url'),
    workflowRunUrl: textOrNull(row, 'workflow_run_url'),
    deploymentUrl: textOrNull(row, 'deployment_url'),
    releaseTag: textOrNull(row, 'release_tag'),
    source: row['source'] as 'api' | 'event',
  }
}
