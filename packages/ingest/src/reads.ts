import { parseSparkline, transactionLatency, withSparklines } from './chart-reads'
import { monitorCheckIns } from './check-in-reads'
import { type EngineRequest, type EngineResponse, json } from './http'
import { type ManagementApi, type ManagementOperation, projectOperation } from './management'
import { readManagementBody } from './management-body'
import type {
  DeploymentRecord,
  EventRecord,
  IngestStore,
  IssueRecord,
  IssueStatus,
  MetricBucket,
  MonitorRecord,
  ProjectRecord,
  SpanRecord,
  TransactionSummary,
} from './ports'
import {
  everyBucket,
  keysetPage,
  parseDeploymentQuery,
  parseEventQuery,
  parseIssueQuery,
  parseMetricQuery,
  parseMonitorQuery,
  parseRootSpanQuery,
  parseTransactionQuery,
} from './read-query'
import type { SourceExcerpts } from './source/excerpts'
import { finiteOrNull, isoOrNull, isValidDate, linkOrNull } from './stored-values'

const NOT_FOUND = { error: 'Not found' } as const
const ISSUE_STATUSES: readonly IssueStatus[] = ['unresolved', 'resolved', 'ignored']

/** The read API of the issues inbox and the event list (issue 5). */
export interface ReadApi {
  /** `GET /api/v1/projects/:id/issues` */
  listIssues: ManagementOperation
  /** `GET /api/v1/projects/:id/issues/:issue_id` */
  getIssue: ManagementOperation
  /** `PATCH /api/v1/projects/:id/issues/:issue_id` — resolve, ignore or reopen. */
  updateIssue: ManagementOperation
  /** `GET /api/v1/projects/:id/events` */
  listEvents: ManagementOperation
  /** `GET /api/v1/projects/:id/monitors` */
  listMonitors: ManagementOperation
  /** `GET /api/v1/projects/:id/monitors/:monitor_id` — one monitor with its read-time status. */
  getMonitor: ManagementOperation
  /** `GET /api/v1/projects/:id/monitors/:monitor_id/check_ins` — the monitor's history, newest first. */
  listCheckIns: ManagementOperation
  /** `GET /api/v1/projects/:id/deployments` */
  listDeployments: ManagementOperation
  /** `GET /api/v1/projects/:id/events/:event_id` — the event with its issue, deployment and related events. */
  getEvent: ManagementOperation
  /** `GET /api/v1/projects/:id/transactions` — count, errors and percentiles per name. */
  listTransactions: ManagementOperation
  /** `GET /api/v1/projects/:id/metrics` — time buckets of one metric. */
  getMetric: ManagementOperation
  /** `GET /api/v1/projects/:id/traces` — recent root spans. */
  listTraces: ManagementOperation
  /** `GET /api/v1/projects/:id/traces/:trace_id` — every span of a trace with its events. */
  getTrace: ManagementOperation
  /** `GET /api/v1/projects/:id/transactions/latency` — p50/p95/p99 and count per time bucket. */
  getTransactionLatency: ManagementOperation
}

/** The most spans `GET …/traces/:trace_id` returns (earliest first); more set `truncated`. */
export const MAX_TRACE_SPANS = 5_000
/** How many non-span events of a trace `GET …/traces/:trace_id` shows. */
export const TRACE_EVENTS_LIMIT = 100
const MAX_TRACE_ID = 1_024

/** How many related events `GET …/events/:event_id` shows. */
export const RELATED_EVENTS_LIMIT = 20

/** Options of {@link createReadApi}. */
export interface ReadApiOptions {
  readonly store: IngestStore
  /** Authentication and visibility are the management API's. */
  readonly management: Pick<ManagementApi, 'authenticate' | 'canSee'>
  /** The clock monitor statuses are computed with (the engine's `now`). */
  readonly now?: () => Date
  /** Resolves `frames` (with source excerpts) of the event detail; without it `frames` is `[]`. */
  readonly sources?: Pick<SourceExcerpts, 'framesFor'>
}

/** Read-time status of a monitor. */
export type MonitorStatus = 'ok' | 'error' | 'missed'

/** Grace after a monitor's expected time before it counts as missed: max(interval / 2, 30 s). */
export function monitorGraceSeconds(intervalSeconds: number): number {
  return Math.max(intervalSeconds / 2, 30)
}

/**
 * The status of a monitor at `now`: `error` while its last health is `error` (until an `ok`
 * arrives, even past its deadline), else `missed` once no check-in arrived within the interval
 * plus the grace, else `ok` — also while its health is still unknown (no `ok` or `error` yet).
 */
export function monitorStatus(m: MonitorRecord, now: Date): MonitorStatus {
  if (m.health === 'error') return 'error'
  const deadline =
    m.lastCheckInAt.getTime() +
    (m.expectedIntervalSeconds + monitorGraceSeconds(m.expectedIntervalSeconds)) * 1000
  return now.getTime() > deadline ? 'missed' : 'ok'
}

/** JSON of a monitor at `now`. */
export function monitorJson(m: MonitorRecord, now: Date) {
  const next = m.lastCheckInAt.getTime() + m.expectedIntervalSeconds * 1000
  const grace = monitorGraceSeconds(m.expectedIntervalSeconds)
  return {
    id: m.id,
    slug: m.slug,
    environment: m.environment,
    status: monitorStatus(m, now),
    health: m.health,
    last_status: m.lastStatus,
    last_check_in_at: isoOrNull(m.lastCheckInAt),
    expected_interval_seconds: m.expectedIntervalSeconds,
    next_expected_at: isoOrNull(new Date(next)),
    missed_after: isoOrNull(new Date(next + grace * 1000)),
    last_release: m.lastRelease,
    check_in_count: m.checkInCount,
  }
}

/** The fingerprint an issue was grouped by, or `null` when grouped by message. */
function fingerprintOf(groupingKey: string): string | null {
  return groupingKey.startsWith('fingerprint:') ? groupingKey.slice('fingerprint:'.length) : null
}

/** JSON of an issue. */
export function issueJson(i: IssueRecord) {
  return {
    id: i.id,
    fingerprint: fingerprintOf(i.groupingKey),
    title: i.title,
    level: i.level,
    status: i.status,
    count: i.count,
    first_seen_at: isoOrNull(i.firstSeenAt),
    last_seen_at: isoOrNull(i.lastSeenAt),
    first_release: i.firstRelease,
    last_release: i.lastRelease,
    latest_event_id: i.latestEventId,
    regression_count: i.regressionCount,
    regressed_in_release: i.regressedInRelease,
  }
}

/** JSON of an event. */
export function eventJson(e: EventRecord) {
  return {
    id: e.id,
    legacy_id: e.legacyId,
    event_type: e.eventType,
    level: e.level,
    message: e.message,
    fingerprint: e.fingerprint,
    occurred_at: isoOrNull(e.occurredAt),
    context: e.payload['context'] ?? {},
    issue_id: e.issueId,
    environment: e.environment,
    release: e.release,
    trace_id: e.traceId,
    request_id: e.requestId,
    session_id: e.sessionId,
  }
}

/** JSON of one transaction name's timings. */
export function transactionJson(t: TransactionSummary) {
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
) {
  return everyBucket(buckets, since, until, intervalSeconds, (b) => ({
    count: b?.count ?? 0,
    sum: finiteOrNull(b?.sum),
    min: finiteOrNull(b?.min),
    max: finiteOrNull(b?.max),
    avg: finiteOrNull(b?.avg),
  }))
}

/** JSON of a span. */
export function spanJson(s: SpanRecord) {
  return {
    id: s.id,
    trace_id: s.traceId,
    span_id: s.spanId,
    parent_span_id: s.parentSpanId,
    name: s.name,
    kind: s.kind,
    started_at: isoOrNull(s.startedAt),
    ended_at: isoOrNull(s.endedAt),
    duration_ms: finiteOrNull(s.durationMs),
    environment: s.environment,
    release: s.release,
    status: s.status,
    level: s.level,
    context: s.payload['context'] ?? {},
  }
}

/**
 * A trace's tree: each span's depth below its root (0 for roots and for spans whose parent is
 * not in the trace), and the root: the earliest span without a parent, else the earliest span
 * whose parent is missing.
 */
export function traceTree(spans: readonly SpanRecord[]) {
  const bySpanId = new Map<string, SpanRecord>()
  for (const s of spans) if (s.spanId !== null && !bySpanId.has(s.spanId)) bySpanId.set(s.spanId, s)
  const depths = new Map<SpanRecord, number>()
  const depthOf = (s: SpanRecord): number => {
    const known = depths.get(s)
    if (known !== undefined) return known
    // Walk up iteratively; a cycle (a span its own ancestor) stops at the first repeat.
    const chain: SpanRecord[] = []
    const seen = new Set<SpanRecord>()
    let at: SpanRecord | undefined = s
    let base = 0
    while (at && !seen.has(at)) {
      const d = depths.get(at)
      if (d !== undefined) {
        base = d + 1
        break
      }
      seen.add(at)
      chain.push(at)
      at = at.parentSpanId === null ? undefined : bySpanId.get(at.parentSpanId)
    }
    for (let i = chain.length - 1; i >= 0; i--) depths.set(chain[i]!, base + (chain.length - 1 - i))
    return depths.get(s)!
  }
  const root =
    spans.find((s) => s.parentSpanId === null) ??
    spans.find((s) => s.parentSpanId !== null && !bySpanId.has(s.parentSpanId)) ??
    spans[0] ??
    null
  return { root, depthOf }
}

/**
 * The earliest span start and latest span end (`ended_at`, else start plus `duration_ms`) of a
 * trace, as ISO strings; instants JavaScript cannot represent (from an old database) are skipped.
 */
export function traceExtent(spans: readonly SpanRecord[]) {
  let first = Number.POSITIVE_INFINITY
  let last = Number.NEGATIVE_INFINITY
  for (const s of spans) {
    const start = s.startedAt.getTime()
    const end = s.endedAt?.getTime() ?? start + (finiteOrNull(s.durationMs) ?? 0)
    if (isValidDate(new Date(start)) && start < first) first = start
    if (isValidDate(new Date(end)) && end > last) last = end
  }
  return { startedAt: isoOrNull(new Date(first)), endedAt: isoOrNull(new Date(last)) }
}

/** JSON of a deployment. */
export function deploymentJson(d: DeploymentRecord) {
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

/** Creates the read operations over a store. */
export function createReadApi(options: ReadApiOptions): ReadApi {
  const { store, management } = options
  const now = options.now ?? (() => new Date())

  /** Runs `fn` on the project of `:id` for a user who may see it: 401 without a user, else 404. */
  const withProject = (
    fn: (request: EngineRequest, project: ProjectRecord) => Promise<EngineResponse>,
  ) => projectOperation(management, (id) => store.findProject(id), false, fn)

  const issueId = (request: EngineRequest) => request.params?.['issue_id'] ?? ''
  const monitorId = (request: EngineRequest) => request.params?.['monitor_id'] ?? ''

  /**
   * The deployment of an event: the one of its release and environment (and repository when the
   * event names one), else the newest deployed at or before the event in that environment (and
   * repository); `null` for an event without an environment.
   */
  async function deploymentOf(projectId: string, e: EventRecord) {
    if (e.environment === null) return null
    const repository = e.payload['repository']
    const base = {
      projectId,
      environment: e.environment,
      ...(typeof repository === 'string' ? { repository } : {}),
      limit: 1,
    }
    if (e.release !== null) {
      const [exact] = await store.listDeployments({ ...base, release: e.release })
      if (exact) return exact
    }
    if (!isValidDate(e.occurredAt)) return null
    const [before] = await store.listDeployments({ ...base, deployedBefore: e.occurredAt })
    return before ?? null
  }

  return {
    listTransactions: withProject(async (request, project) => {
      const parsed = parseTransactionQuery(project.id, request.query ?? {}, now())
      if (!parsed.ok) return json(422, { errors: parsed.errors })
      const q = parsed.value
      const rows = await store.summarizeTransactions(q)
      return json(200, {
        since: q.since.toISOString(),
        until: q.until.toISOString(),
        transactions: rows.map(transactionJson),
      })
    }),

    getMetric: withProject(async (request, project) => {
      const parsed = parseMetricQuery(project.id, request.query ?? {}, now())
      if (!parsed.ok) return json(422, { errors: parsed.errors })
      const q = parsed.value
      const buckets = await store.metricBuckets(q)
      return json(200, {
        name: q.name,
        since: q.since.toISOString(),
        until: q.until.toISOString(),
        interval_seconds: q.intervalSeconds,
        buckets: metricBucketsJson(buckets, q.since, q.until, q.intervalSeconds),
      })
    }),

    listTraces: withProject(async (request, project) => {
      const result = await keysetPage(
        parseRootSpanQuery(project.id, request.query ?? {}),
        (q) => store.listRootSpans(q),
        (s) => ({ at: s.startedAt, id: s.id }),
      )
      if ('status' in result) return result
      return json(200, { traces: result.rows.map(spanJson), next_cursor: result.next })
    }),

    getTrace: withProject(async (request, project) => {
      const traceId = request.params?.['trace_id'] ?? ''
      // No stored trace id is empty, longer than the field allows or holds a NUL.
      if (traceId === '' || traceId.length > MAX_TRACE_ID || traceId.includes('\u0000')) {
        return json(404, NOT_FOUND)
      }
      const [spans, events] = await Promise.all([
        store.listTraceSpans(project.id, traceId, MAX_TRACE_SPANS + 1),
        store.listEvents({ projectId: project.id, traceId, limit: TRACE_EVENTS_LIMIT }),
      ])
      if (spans.length === 0 && events.length === 0) return json(404, NOT_FOUND)
      const shown = spans.slice(0, MAX_TRACE_SPANS)
      const { root, depthOf } = traceTree(shown)
      const { startedAt, endedAt } = traceExtent(shown)
      return json(200, {
        trace_id: traceId,
        root: root ? spanJson(root) : null,
        duration_ms: finiteOrNull(root?.durationMs),
        started_at: startedAt,
        ended_at: endedAt,
        span_count: shown.length,
        truncated: spans.length > MAX_TRACE_SPANS,
        spans: shown.map((s) => ({ ...spanJson(s), depth: depthOf(s) })),
        events: events.filter((e) => e.eventType !== 'span').map(eventJson),
      })
    }),

    getTransactionLatency: withProject((request, project) =>
      transactionLatency(store, project, request.query ?? {}, now()),
    ),

    listIssues: withProject(async (request, project) => {
      const sparkline = parseSparkline(request.query ?? {})
      if (!sparkline.ok) return json(422, { errors: sparkline.errors })
      const result = await keysetPage(
        parseIssueQuery(project.id, request.query ?? {}),
        (q) => store.listIssues(q),
        (i) => ({ at: i.lastSeenAt, id: i.id }),
      )
      if ('status' in result) return result
      const issues = result.rows.map(issueJson)
      return json(200, {
        issues: sparkline.value ? await withSparklines(store, project.id, issues, now()) : issues,
        next_cursor: result.next,
      })
    }),

    getIssue: withProject(async (request, project) => {
      const issue = await store.findIssue(project.id, issueId(request))
      return issue ? json(200, { issue: issueJson(issue) }) : json(404, NOT_FOUND)
    }),

    updateIssue: withProject(async (request, project) => {
      const issue = await store.findIssue(project.id, issueId(request))
      if (!issue) return json(404, NOT_FOUND)
      const body = readManagementBody(request, { key: 'issue', fields: ['status'] })
      if (!body.ok) return body.response
      const status = body.value?.['status']
      if (typeof status !== 'string' || !ISSUE_STATUSES.includes(status as IssueStatus)) {
        return json(422, { errors: ['issue.status must be one of unresolved, resolved, ignored'] })
      }
      const updated = await store.setIssueStatus(project.id, issue.id, status as IssueStatus)
      return updated ? json(200, { issue: issueJson(updated) }) : json(404, NOT_FOUND)
    }),

    listEvents: withProject(async (request, project) => {
      const result = await keysetPage(
        parseEventQuery(project.id, request.query ?? {}),
        (q) => store.listEvents(q),
        (e) => ({ at: e.occurredAt, id: e.id }),
      )
      if ('status' in result) return result
      return json(200, { events: result.rows.map(eventJson), next_cursor: result.next })
    }),

    listMonitors: withProject(async (request, project) => {
      const at = now()
      const result = await keysetPage(
        parseMonitorQuery(project.id, request.query ?? {}),
        (q) => store.listMonitors(q),
        (m) => ({ at: m.lastCheckInAt, id: m.id }),
      )
      if ('status' in result) return result
      return json(200, {
        monitors: result.rows.map((m) => monitorJson(m, at)),
        next_cursor: result.next,
      })
    }),

    getMonitor: withProject(async (request, project) => {
      const monitor = await store.findMonitor(project.id, monitorId(request))
      return monitor ? json(200, { monitor: monitorJson(monitor, now()) }) : json(404, NOT_FOUND)
    }),

    listCheckIns: withProject((request, project) =>
      monitorCheckIns(store, project, monitorId(request), request.query ?? {}),
    ),

    listDeployments: withProject(async (request, project) => {
      const result = await keysetPage(
        parseDeploymentQuery(project.id, request.query ?? {}),
        (q) => store.listDeployments(q),
        (d) => ({ at: d.deployedAt, id: d.id }),
      )
      if ('status' in result) return result
      return json(200, { deployments: result.rows.map(deploymentJson), next_cursor: result.next })
    }),

    getEvent: withProject(async (request, project) => {
      const event = await store.findEvent(project.id, request.params?.['event_id'] ?? '')
      if (!event) return json(404, NOT_FOUND)
      const [issue, deployment, related] = await Promise.all([
        event.issueId === null ? null : store.findIssue(project.id, event.issueId),
        deploymentOf(project.id, event),
        store.listRelatedEvents({
          projectId: project.id,
          eventId: event.id,
          traceId: event.traceId,
          requestId: event.requestId,
          sessionId: event.sessionId,
          limit: RELATED_EVENTS_LIMIT,
        }),
      ])
      const frames = options.sources
        ? await options.sources.framesFor(project.id, event, deployment)
        : { source_commit: null, frames: [] }
      return json(200, {
        event: eventJson(event),
        issue: issue ? issueJson(issue) : null,
        deployment: deployment ? deploymentJson(deployment) : null,
        related: related.map(eventJson),
        ...frames,
      })
    }),
  }
}
