import type { IssueMergeStore } from './issue-merge'
import type { IssueTriageStore } from './issue-triage'
import type {
  CheckInQuery,
  DeploymentQuery,
  EventQuery,
  IssueActivityQuery,
  IssueQuery,
  MetricQuery,
  MonitorQuery,
  RelatedEventsQuery,
  RootSpanQuery,
  TransactionLatencyQuery,
  TransactionQuery,
} from './read-queries'
import type {
  CheckInRecord,
  DeploymentRecord,
  EventRecord,
  IssueActivityBucket,
  IssueRecord,
  IssueStatus,
  MetricBucket,
  MonitorRecord,
  SpanRecord,
  TransactionLatencyBucket,
  TransactionSummary,
} from './read-records'

/** The read side of the inbox and event list, and a team's work on issues. */
export interface ReadStore extends IssueTriageStore, IssueMergeStore {
  /** Issues newest activity first: (last_seen_at desc, id desc), at most `limit`. */
  listIssues(query: IssueQuery): Promise<readonly IssueRecord[]>
  /** The issue of the project, or `null`. */
  findIssue(projectId: string, issueId: string): Promise<IssueRecord | null>
  /** Sets an issue's status; resolves the updated issue, or `null` when unknown. */
  setIssueStatus(
    projectId: string,
    issueId: string,
    status: IssueStatus,
  ): Promise<IssueRecord | null>
  /** Events newest first: (occurred_at desc, id desc), at most `limit`. */
  listEvents(query: EventQuery): Promise<readonly EventRecord[]>
  /** Monitors latest check-in first: (last_check_in_at desc, id desc), at most `limit`. */
  listMonitors(query: MonitorQuery): Promise<readonly MonitorRecord[]>
  /** The monitor of the project, or `null` (also for an id that is not a UUID). */
  findMonitor(projectId: string, monitorId: string): Promise<MonitorRecord | null>
  /** A monitor's check-ins newest first: (occurred_at desc, id desc), at most `limit`. */
  listCheckIns(query: CheckInQuery): Promise<readonly CheckInRecord[]>
  /** Deployments newest first: (deployed_at desc, id desc), at most `limit`. */
  listDeployments(query: DeploymentQuery): Promise<readonly DeploymentRecord[]>
  /** The event of the project, or `null`. */
  findEvent(projectId: string, eventId: string): Promise<EventRecord | null>
  /**
   * Other events sharing the trace, request or session id, newest first (occurred_at desc,
   * id desc), at most `limit`; none when all three are `null`.
   */
  listRelatedEvents(query: RelatedEventsQuery): Promise<readonly EventRecord[]>
  /** Per transaction name: count, errors and timings, busiest first (count desc, name). */
  summarizeTransactions(query: TransactionQuery): Promise<readonly TransactionSummary[]>
  /** The non-empty buckets of a metric, oldest first. */
  metricBuckets(query: MetricQuery): Promise<readonly MetricBucket[]>
  /** The spans of a trace ordered by (started_at, id), at most `limit`. */
  listTraceSpans(projectId: string, traceId: string, limit: number): Promise<readonly SpanRecord[]>
  /** Root spans newest first: (started_at desc, id desc), at most `limit`. */
  listRootSpans(query: RootSpanQuery): Promise<readonly SpanRecord[]>
  /** Per issue, the non-empty buckets of its events (one grouped query for all the issues). */
  issueActivity(query: IssueActivityQuery): Promise<readonly IssueActivityBucket[]>
  /** The non-empty buckets of transaction timings, oldest first. */
  transactionLatency(query: TransactionLatencyQuery): Promise<readonly TransactionLatencyBucket[]>
}
