import type {
  Issue,
  MetricBucket as MetricBucketJson,
  Span,
  StoredDeployment,
  StoredEvent,
  Transaction,
} from '@tis/schema'
import { storedSpanKind } from '@tis/schema'
import type {
  DeploymentRecord,
  EventRecord,
  IgnoreCondition,
  IssueRecord,
  MetricBucket,
  SpanRecord,
  TransactionSummary,
} from '../ports'
import { finiteOrNull, isoOrNull, linkOrNull, objectOrEmpty } from './stored-values'
import { everyBucket } from './window-query'

// The JSON of the read API's records (section "Read API" of docs/read-api.md).

/** The fingerprint an issue was grouped by, or `null` when grouped by message. */
function fingerprintOf(groupingKey: string): string | null {
  return groupingKey.startsWith('fingerprint:') ? groupingKey.slice('fingerprint:'.length) : null
}

/** An ignore condition as the API shows it, or `null`. */
function ignoreJson(c: IgnoreCondition | null): Issue['ignore_until'] {
  if (!c) return null
  if ('until' in c) return { until: isoOrNull(c.until) }
  if ('users' in c) return { users: c.users }
  return c.windowSeconds === undefined
    ? { count: c.count }
    : { count: c.count, window_seconds: c.windowSeconds }
}

/** JSON of an issue. */
export function issueJson(i: IssueRecord): Issue {
  return {
    id: i.id,
    fingerprint: fingerprintOf(i.groupingKey),
    title: i.title,
    level: i.level,
    status: i.status,
    count: i.count,
    users: i.users,
    first_seen_at: isoOrNull(i.firstSeenAt),
    last_seen_at: isoOrNull(i.lastSeenAt),
    first_release: i.firstRelease,
    last_release: i.lastRelease,
    latest_event_id: i.latestEventId,
    regression_count: i.regressionCount,
    regressed_in_release: i.regressedInRelease,
    assignee: i.assignee?.email ?? null,
    ignore_until: ignoreJson(i.ignoreUntil ?? null),
    events_expired: i.eventsExpired ?? false,
  }
}

/** JSON of an event. */
export function eventJson(e: EventRecord): StoredEvent {
  return {
    id: e.id,
    legacy_id: e.legacyId,
    event_type: e.eventType,
    level: e.level,
    message: e.message,
    fingerprint: e.fingerprint,
    occurred_at: isoOrNull(e.occurredAt),
    context: objectOrEmpty(e.payload['context']),
    issue_id: e.issueId,
    environment: e.environment,
    release: e.release,
    trace_id: e.traceId,
    request_id: e.requestId,
    session_id: e.sessionId,
  }
}

/** JSON of one transaction name's timings. */
export function transactionJson(t: TransactionSummary): Transaction {
  return {
    name: t.name,
    count: t.count,
    error_count: t.errorCount,
    error_rate: t.count === 0 ? 0 : t.errorCount / t.count,
    p50_ms: finiteOrNull(t.p50),
    p95_ms: finiteOrNull(t.p95),
    p99_ms: finiteOrNull(t.p99),
    avg_ms: finiteOrNull(t.avg),
  }
}

/** Every bucket of `[since, until)` oldest first; buckets without metric events count 0. */
export function metricBucketsJson(
  buckets: readonly MetricBucket[],
  since: Date,
  until: Date,
  intervalSeconds: number,
): MetricBucketJson[] {
  return everyBucket(buckets, since, until, intervalSeconds, (b) => ({
    count: b?.count ?? 0,
    sum: finiteOrNull(b?.sum),
    min: finiteOrNull(b?.min),
    max: finiteOrNull(b?.max),
    avg: finiteOrNull(b?.avg),
  }))
}

/** JSON of a span. */
export function spanJson(s: SpanRecord): Span {
  return {
    id: s.id,
    trace_id: s.traceId,
    span_id: s.spanId,
    parent_span_id: s.parentSpanId,
    name: s.name,
    // Stored kinds are always one of the ten; the store's column is text, so narrow it.
    kind: s.kind === null ? null : storedSpanKind(s.kind),
    started_at: isoOrNull(s.startedAt),
    ended_at: isoOrNull(s.endedAt),
    duration_ms: finiteOrNull(s.durationMs),
    environment: s.environment,
    release: s.release,
    status: s.status,
    level: s.level,
    context: objectOrEmpty(s.payload['context']),
  }
}

/** JSON of a deployment. */
export function deploymentJson(d: DeploymentRecord): StoredDeployment {
  return {
    id: d.id,
    repository: d.repository,
    environment: d.environment,
    release: d.release,
    commit_sha: d.commitSha,
    branch: d.branch,
    release_tag: d.releaseTag,
    deployed_at: isoOrNull(d.deployedAt),
    pull_request_number: d.pullRequestNumber,
    pull_request_url: linkOrNull(d.pullRequestUrl),
    release_url: linkOrNull(d.releaseUrl),
    compare_url: linkOrNull(d.compareUrl),
    workflow_run_url: linkOrNull(d.workflowRunUrl),
    deployment_url: linkOrNull(d.deploymentUrl),
    source: d.source,
  }
}
