import type { ReadBarrier } from '../log/read-barrier'
import type { ManagementOperation, ProjectAccess } from '../management/access'
import type { ReadStore } from '../ports'
import type { ReleaseHealthStore } from '../ports/release-health'
import type { ReleaseReads } from '../releases/api'
import type { SourceExcerpts } from '../source/excerpts'
import type { IssueHistoryApi } from './issue-history'
import type { AssigneeStore } from './issue-update'
import type { ReadSourceMaps } from './resolved-events'

/** The read API of the issues inbox and the event list. */
export interface ReadApi extends ReleaseReads, IssueHistoryApi {
  /** `GET /api/v1/projects/:id/issues` */
  listIssues: ManagementOperation
  /** `GET /api/v1/projects/:id/issues/:issue_id` */
  getIssue: ManagementOperation
  /** `PATCH /api/v1/projects/:id/issues/:issue_id` — resolve, ignore or reopen; assign. */
  updateIssue: ManagementOperation
  /** `PATCH /api/v1/projects/:id/issues` — one change to many issues (docs/issues.md#bulk-changes). */
  updateIssues: ManagementOperation
  /** `POST /api/v1/projects/:id/issues/merge` — one issue takes in others (docs/issues.md#merging-issues). */
  mergeIssues: ManagementOperation
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

/** Options of {@link createReadApi}. */
export interface ReadApiOptions {
  /** The read model's queries (release health included). */
  readonly store: ReadStore & ReleaseHealthStore & AssigneeStore
  /** Who may read which project (see `createProjectAccess`). */
  readonly access: Pick<ProjectAccess, 'project'>
  /** The clock monitor statuses are computed with (the engine's `now`). */
  readonly now?: () => Date
  /** Resolves `frames` (with source excerpts) of the event detail; without it `frames` is `[]`. */
  readonly sources?: Pick<SourceExcerpts, 'framesFor'>
  /**
   * The ingest log's read barrier: each read, once its caller may see the project, waits for
   * the projection to pass what was acknowledged before it. Without it, reads answer
   * from the read model at once.
   */
  readonly barrier?: ReadBarrier
  /**
   * Resolves the JavaScript frames of errors stored before their source maps were uploaded, at
   * read time (the event detail and the event list). Without it, events read as projected.
   */
  readonly sourceMaps?: ReadSourceMaps
}
