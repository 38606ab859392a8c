import {
  type ApiOperation,
  checkInPageSchema,
  deploymentPageSchema,
  eventDetailSchema,
  eventPageSchema,
  issueAnswerSchema,
  issuePageSchema,
  issueUpdateSchema,
  latencySeriesSchema,
  MAX_METRIC_BUCKETS,
  metricSeriesSchema,
  monitorAnswerSchema,
  monitorPageSchema,
  type OpenApiExtension,
  operationPaths,
  READ_COMPONENTS,
  releaseDetailSchema,
  releasePageSchema,
  traceDetailSchema,
  traceListSchema,
  transactionListSchema,
} from '@tis/schema'
import * as z from 'zod'
import { RELEASE_LIST_QUERY, RELEASE_QUERY } from '../releases/query'
import { ISSUE_HISTORY_OPERATIONS } from './issue-history-openapi'
import {
  MONITOR_NOT_FOUND,
  mergedPointer,
  PAGE_DESCRIPTION,
  RELEASE_NOT_FOUND,
  readErrors,
  SEARCH_REJECTED,
  TRACE_NOT_FOUND,
} from './openapi-responses'
import {
  CHECK_IN_QUERY,
  DEPLOYMENT_QUERY,
  EVENT_QUERY,
  ISSUE_QUERY,
  MONITOR_QUERY,
  ROOT_SPAN_QUERY,
} from './query'
import { limitDoc } from './query-fields'
import { METRIC_QUERY, TRANSACTION_QUERY } from './window-query'

// The read API's operations, described by the zod schemas that parse their queries and type
// their answers; the OpenAPI document's read paths are generated from this table.

/** A list's query as documented: `limit` as the integer its digits name, 50 when absent. */
const paged = <Q extends z.ZodObject>(query: Q) => query.extend({ limit: limitDoc })

const op = (o: Omit<ApiOperation, 'tag'>): ApiOperation => ({ ...o, tag: 'reads' })
const ok = (description: string, body: z.ZodType) => ({ 200: { description, body } })
const PROJECT = '/api/v1/projects/{id}'

/** Every operation of the read API. */
export const READ_OPERATIONS: readonly ApiOperation[] = [
  op({
    method: 'get',
    path: `${PROJECT}/issues`,
    id: 'listIssues',
    summary: "List a project's issues, newest activity first (or in `sort`'s order)",
    query: paged(ISSUE_QUERY),
    responses: {
      ...ok(PAGE_DESCRIPTION, issuePageSchema),
      ...readErrors(401, 404, 422),
      400: SEARCH_REJECTED,
    },
  }),
  op({
    method: 'get',
    path: `${PROJECT}/issues/{issue_id}`,
    id: 'getIssue',
    summary: 'Show one issue',
    responses: {
      ...ok('The issue.', issueAnswerSchema),
      ...mergedPointer('GET'),
      ...readErrors(401, 404),
    },
  }),
  op({
    method: 'patch',
    path: `${PROJECT}/issues/{issue_id}`,
    id: 'updateIssue',
    summary: 'Resolve, ignore or reopen an issue',
    description:
      'A new occurrence of a resolved issue reopens it (`unresolved`) and counts a regression; an ignored issue stays ignored and keeps counting.',
    body: issueUpdateSchema,
    responses: {
      ...ok('The updated issue.', issueAnswerSchema),
      ...mergedPointer('write'),
      ...readErrors(400, 401, 404, 422),
    },
  }),
  op({
    method: 'get',
    path: `${PROJECT}/events`,
    id: 'listEvents',
    summary: "List a project's events, newest first",
    query: paged(EVENT_QUERY),
    responses: {
      ...ok(PAGE_DESCRIPTION, eventPageSchema),
      ...mergedPointer('GET'),
      ...readErrors(401, 404, 422),
      400: SEARCH_REJECTED,
    },
  }),
  op({
    method: 'get',
    path: `${PROJECT}/events/{event_id}`,
    id: 'getEvent',
    summary: 'Show one event with its issue, deployment and related events',
    responses: { ...ok('The event.', eventDetailSchema), ...readErrors(401, 404) },
  }),
  op({
    method: 'get',
    path: `${PROJECT}/monitors`,
    id: 'listMonitors',
    summary: "List a project's monitors, latest check-in first",
    query: paged(MONITOR_QUERY),
    responses: { ...ok(PAGE_DESCRIPTION, monitorPageSchema), ...readErrors(401, 404, 422) },
  }),
  op({
    method: 'get',
    path: `${PROJECT}/monitors/{monitor_id}`,
    id: 'getMonitor',
    summary: 'Show one monitor with its status',
    responses: {
      ...ok('The monitor, its status computed now.', monitorAnswerSchema),
      ...readErrors(401),
      404: MONITOR_NOT_FOUND,
    },
  }),
  op({
    method: 'get',
    path: `${PROJECT}/monitors/{monitor_id}/check_ins`,
    id: 'listCheckIns',
    summary: "List a monitor's check-ins, newest first",
    description:
      'The history of one monitor (one slug in one environment): every check-in stored for it, by `occurred_at` desc, then id desc.',
    query: paged(CHECK_IN_QUERY),
    responses: {
      ...ok(PAGE_DESCRIPTION, checkInPageSchema),
      ...readErrors(401, 422),
      404: MONITOR_NOT_FOUND,
    },
  }),
  op({
    method: 'get',
    path: `${PROJECT}/deployments`,
    id: 'listDeployments',
    summary: "List a project's deployments, newest first",
    query: paged(DEPLOYMENT_QUERY),
    responses: { ...ok(PAGE_DESCRIPTION, deploymentPageSchema), ...readErrors(401, 404, 422) },
  }),
  op({
    method: 'get',
    path: `${PROJECT}/transactions`,
    id: 'listTransactions',
    summary: 'Summarize transactions per name, busiest first',
    description:
      'Count, errors and p50/p95/p99/avg of `duration_ms` per transaction name, over the transactions with `occurred_at` in [since, until).',
    query: TRANSACTION_QUERY.extend({
      limit: limitDoc.meta({ description: 'How many names, 1 or more; capped at 200.' }),
    }),
    responses: { ...ok('The busiest names.', transactionListSchema), ...readErrors(401, 404, 422) },
  }),
  op({
    method: 'get',
    path: `${PROJECT}/transactions/latency`,
    id: 'getTransactionLatency',
    summary: 'Read transaction latency as time buckets',
    description: `p50/p95/p99/avg of \`duration_ms\`, count and errors per time bucket from \`since\`, of one transaction name or of all transactions. Window and interval rules are the metric read's: at most ${MAX_METRIC_BUCKETS} buckets, a smaller interval answers 422.`,
    query: METRIC_QUERY.extend({
      name: METRIC_QUERY.shape.name.optional().meta({
        description: 'One transaction name (`transaction_name`, else `message`); default all.',
      }),
    }),
    responses: {
      ...ok('Every bucket of the window, oldest first.', latencySeriesSchema),
      ...readErrors(401, 404, 422),
    },
  }),
  op({
    method: 'get',
    path: `${PROJECT}/metrics`,
    id: 'getMetric',
    summary: 'Read one metric as time buckets',
    description: `Metric events whose \`message\` is \`name\`, bucketed from \`since\` by \`interval\`. At most ${MAX_METRIC_BUCKETS} buckets: a smaller interval answers 422.`,
    query: METRIC_QUERY,
    responses: {
      ...ok('Every bucket of the window, oldest first.', metricSeriesSchema),
      ...readErrors(401, 404, 422),
    },
  }),
  op({
    method: 'get',
    path: `${PROJECT}/traces`,
    id: 'listTraces',
    summary: 'List recent root spans, newest first',
    query: paged(ROOT_SPAN_QUERY),
    responses: { ...ok(PAGE_DESCRIPTION, traceListSchema), ...readErrors(401, 404, 422) },
  }),
  op({
    method: 'get',
    path: `${PROJECT}/traces/{trace_id}`,
    id: 'getTrace',
    summary: 'Show one trace: its span tree and events',
    params: { trace_id: z.string() },
    responses: { ...ok('The trace.', traceDetailSchema), ...readErrors(401), 404: TRACE_NOT_FOUND },
  }),
  op({
    method: 'get',
    path: `${PROJECT}/releases`,
    id: 'listReleases',
    summary: "List a project's releases with their health, last seen first",
    description:
      'Every release a session, an event or a deployment named in the window, with its sessions, users, crash-free rates and adoption (docs/release-health.md). Sums of per-minute aggregates: never raw updates.',
    query: paged(RELEASE_LIST_QUERY),
    responses: { ...ok(PAGE_DESCRIPTION, releasePageSchema), ...readErrors(401, 404, 422) },
  }),
  op({
    method: 'get',
    path: `${PROJECT}/releases/{version}`,
    id: 'getRelease',
    summary: "Show one release's health, sessions over time, new issues and deployments",
    params: { version: z.string().meta({ description: 'The release, URL-encoded.' }) },
    query: RELEASE_QUERY,
    responses: {
      ...ok('The release.', releaseDetailSchema),
      ...readErrors(401, 422),
      404: RELEASE_NOT_FOUND,
    },
  }),
  ...ISSUE_HISTORY_OPERATIONS,
]

/**
 * The read API (issues inbox, events, monitors, deployments, transactions, metrics, traces) as an
 * OpenAPI extension. It uses the management API's user access tokens and visibility: projects the
 * user owns, is a member of, or all for an administrator; 404 otherwise.
 */
export const READS_OPENAPI: OpenApiExtension = {
  tags: [
    {
      name: 'reads',
      description:
        'The issues inbox, the event list, monitors, deployments, transactions, metrics and traces',
    },
  ],
  schemas: READ_COMPONENTS,
  paths: operationPaths(READ_OPERATIONS),
}
