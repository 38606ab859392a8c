import type * as z from 'zod'
import { storedDeploymentSchema } from './reads-deployments'
import { eventDetailSchema } from './reads-event-detail'
import { storedEventSchema } from './reads-events'
import {
  issueActivitySchema,
  issueCommentCreateSchema,
  issueCommentSchema,
} from './reads-issue-history'
import { issueMergedSchema, issueMergeSchema } from './reads-issue-merge'
import { issueBulkUpdateSchema, issueSchema, issueUpdateSchema } from './reads-issues'
import { monitorSchema, storedCheckInSchema } from './reads-monitors'
import {
  latencyBucketSchema,
  latencySeriesSchema,
  metricBucketSchema,
  metricSeriesSchema,
  transactionListSchema,
  transactionSchema,
} from './reads-performance'
import {
  releaseDetailSchema,
  releaseHealthSchema,
  releaseSeriesBucketSchema,
} from './reads-releases'
import { spanSchema, traceDetailSchema, traceListSchema } from './reads-traces'

/** The read API's components of the OpenAPI document, by name (each registered under it). */
export const READ_COMPONENTS: Readonly<Record<string, z.ZodType>> = {
  Issue: issueSchema,
  IssueUpdate: issueUpdateSchema,
  IssueBulkUpdate: issueBulkUpdateSchema,
  IssueMerge: issueMergeSchema,
  IssueMerged: issueMergedSchema,
  IssueComment: issueCommentSchema,
  IssueCommentCreate: issueCommentCreateSchema,
  IssueActivity: issueActivitySchema,
  StoredEvent: storedEventSchema,
  Monitor: monitorSchema,
  StoredCheckIn: storedCheckInSchema,
  StoredDeployment: storedDeploymentSchema,
  EventDetail: eventDetailSchema,
  Transaction: transactionSchema,
  TransactionList: transactionListSchema,
  MetricBucket: metricBucketSchema,
  LatencyBucket: latencyBucketSchema,
  LatencySeries: latencySeriesSchema,
  MetricSeries: metricSeriesSchema,
  Span: spanSchema,
  TraceList: traceListSchema,
  TraceDetail: traceDetailSchema,
  ReleaseHealth: releaseHealthSchema,
  ReleaseSeriesBucket: releaseSeriesBucketSchema,
  ReleaseDetail: releaseDetailSchema,
}
