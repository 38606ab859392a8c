import {
  type DeploymentPage,
  type EventDetail,
  type EventPage,
  type IssueAnswer,
  type IssuePage,
  type MetricSeries,
  type MonitorAnswer,
  type MonitorPage,
  RELATED_EVENTS_LIMIT,
  type TraceDetail,
  type TraceList,
  type TransactionList,
} from '@tis/schema'
import { type EngineRequest, json } from '../http'
import { readBehind } from '../log/read-barrier'
import type { ManagementOperation } from '../management/access'
import type { EventRecord } from '../ports'
import { createReleaseReads } from '../releases/api'
import { parseSparkline, transactionLatency, withSparklines } from './charts'
import { monitorCheckIns } from './check-ins'
import { keysetPage, keysetPageBy } from './cursor'
import { eventDeployment } from './event-deployment'
import { updateIssues } from './issue-bulk'
import { createIssueHistoryApi, type ProjectReadBody, type WithIssue } from './issue-history'
import { createIssueMergeApi, followMerged, followMergedFilter } from './issue-merge'
import { resolveAssignees, updateIssue } from './issue-update'
import {
  deploymentJson,
  eventJson,
  issueJson,
  metricBucketsJson,
  spanJson,
  transactionJson,
} from './json'
import { monitorJson } from './monitors'
import {
  parseDeploymentQuery,
  parseEventQuery,
  parseIssueQuery,
  parseMonitorQuery,
  parseRootSpanQuery,
} from './query'
import type { ReadApi, ReadApiOptions } from './read-api-types'
import { withResolvedFrames } from './resolved-events'
import { eventSearch, issueSearch, issueToken } from './search'
import { finiteOrNull } from './stored-values'
import {
  inStartOrder,
  MAX_TRACE_ID,
  MAX_TRACE_SPANS,
  TRACE_EVENTS_LIMIT,
  traceExtent,
  traceTree,
} from './traces'
import { parseMetricQuery, parseTransactionQuery } from './window-query'

export type { ReadApi, ReadApiOptions } from './read-api-types'

const NOT_FOUND = { error: 'Not found' } as const
/** A 200 answer of the type its schema infers (`ok<IssueAnswer>({ … })`). */
const ok = <T>(body: T) => json(200, body)

/** Creates the read operations over a store. */
export function createReadApi(options: ReadApiOptions): ReadApi {
  const { store, access } = options
  const now = options.now ?? (() => new Date())

  /**
   * Runs `fn` on the project of `:id` for a user who may see it (401 without a user, else 404),
   * behind the read barrier: only a read that may proceed waits for the projection.
   */
  const withProject = (fn: ProjectReadBody): ManagementOperation => {
    const { barrier } = options
    return access.project(
      false,
      barrier
        ? (request, project, user, admin) =>
            readBehind(barrier, () => fn(request, project, user, admin))
        : fn,
    )
  }

  const withIssue: WithIssue = (fn, rest, method) =>
    withProject(followMerged(store, fn, rest, method))

  const issueId = (request: EngineRequest) => request.params?.['issue_id'] ?? ''
  const monitorId = (request: EngineRequest) => request.params?.['monitor_id'] ?? ''

  const deploymentOf = (projectId: string, e: EventRecord) => eventDeployment(store, projectId, e)

  return {
    ...createReleaseReads({ store, access, barrier: options.barrier, now }),
    listTransactions: withProject(async (request, project) => {
      const parsed = parseTransactionQuery(project.id, request.query ?? {}, now())
      if (!parsed.ok) return json(422, { errors: parsed.errors })
      const q = parsed.value
      const rows = await store.summarizeTransactions(q)
      return ok<TransactionList>({
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
      return ok<MetricSeries>({
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
      return ok<TraceList>({ traces: result.rows.map(spanJson), next_cursor: result.next })
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
      const first = spans.slice(0, MAX_TRACE_SPANS)
      const { root, depthOf } = traceTree(first)
      const shown = inStartOrder(first, depthOf)
      const { startedAt, endedAt } = traceExtent(shown)
      return ok<TraceDetail>({
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

    listIssues: withProject(async (request, project, user) => {
      const raw = request.query ?? {}
      const parsedSearch = issueSearch(raw, now())
      if (!parsedSearch.ok) return parsedSearch.response
      const search = await resolveAssignees(store, user, parsedSearch.filters)
      if (!search.ok) return json(400, { error: search.error })
      const sparkline = parseSparkline(raw)
      if (!sparkline.ok) return json(422, { errors: sparkline.errors })
      const parsed = parseIssueQuery(project.id, raw, search.filters)
      const sort = parsed.ok ? (parsed.value.sort ?? 'last_seen') : 'last_seen'
      const result = await keysetPageBy(
        parsed,
        (q) => store.listIssues(q),
        (i) => issueToken(sort, i),
      )
      if ('status' in result) return result
      const issues = result.rows.map(issueJson)
      return ok<IssuePage>({
        issues: sparkline.value ? await withSparklines(store, project.id, issues, now()) : issues,
        next_cursor: result.next,
      })
    }),

    getIssue: withIssue(async (request, project) => {
      const issue = await store.findIssue(project.id, issueId(request))
      return issue ? ok<IssueAnswer>({ issue: issueJson(issue) }) : json(404, NOT_FOUND)
    }),

    updateIssue: withIssue(
      (request, project, user) =>
        updateIssue(store, project, issueId(request), request, { userId: user.id, at: now() }),
      undefined,
      'write',
    ),
    updateIssues: withProject((request, project, user) =>
      updateIssues(store, project, user, request, { userId: user.id, at: now() }),
    ),
    ...createIssueMergeApi({ store, now, withProject }),
    ...createIssueHistoryApi({ store, now, withIssue }),

    listEvents: withProject(
      followMergedFilter(store, async (request, project) => {
        const search = eventSearch(request.query ?? {}, now())
        if (!search.ok) return search.response
        const result = await keysetPage(
          parseEventQuery(project.id, request.query ?? {}, search.filters),
          (q) => store.listEvents(q),
          (e) => ({ at: e.occurredAt, id: e.id }),
        )
        if ('status' in result) return result
        const rows = await withResolvedFrames(options.sourceMaps, project.id, result.rows)
        return ok<EventPage>({ events: rows.map(eventJson), next_cursor: result.next })
      }),
    ),

    listMonitors: withProject(async (request, project) => {
      const at = now()
      const result = await keysetPage(
        parseMonitorQuery(project.id, request.query ?? {}),
        (q) => store.listMonitors(q),
        (m) => ({ at: m.lastCheckInAt, id: m.id }),
      )
      if ('status' in result) return result
      return ok<MonitorPage>({
        monitors: result.rows.map((m) => monitorJson(m, at)),
        next_cursor: result.next,
      })
    }),

    getMonitor: withProject(async (request, project) => {
      const monitor = await store.findMonitor(project.id, monitorId(request))
      return monitor
        ? ok<MonitorAnswer>({ monitor: monitorJson(monitor, now()) })
        : json(404, NOT_FOUND)
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
      return ok<DeploymentPage>({
        deployments: result.rows.map(deploymentJson),
        next_cursor: result.next,
      })
    }),

    getEvent: withProject(async (request, project) => {
      const found = await store.findEvent(project.id, request.params?.['event_id'] ?? '')
      if (!found) return json(404, NOT_FOUND)
      const [event] = (await withResolvedFrames(options.sourceMaps, project.id, [found])) as [
        EventRecord,
      ]
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
      return ok<EventDetail>({
        event: eventJson(event),
        issue: issue ? issueJson(issue) : null,
        deployment: deployment ? deploymentJson(deployment) : null,
        related: related.map(eventJson),
        source_commit: frames.source_commit,
        frames: [...frames.frames],
      })
    }),
  }
}
