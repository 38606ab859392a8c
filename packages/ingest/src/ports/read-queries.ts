import type { EventType, IssueSort, SearchFilter } from '@tis/schema'
import type { IgnoreCondition, IssueStatus } from './read-records'

/** What {@link ReadStore.listRelatedEvents} matches on: any of the ids that are present. */
export interface RelatedEventsQuery {
  readonly projectId: string
  /** The event itself, left out. */
  readonly eventId: string
  readonly traceId: string | null
  readonly requestId: string | null
  readonly sessionId: string | null
  readonly limit: number
}

/** A keyset position: the sort time and id of the last row of the previous page. */
export interface KeysetCursor {
  readonly at: Date
  readonly id: string
}

/** A keyset position in a list ordered by a count: the count and id of the last row shown. */
export interface CountCursor {
  readonly count: number
  readonly id: string
}

/** Filters of {@link ReadStore.listIssues}; absent fields do not filter. */
export interface IssueQuery {
  readonly projectId: string
  /** `null` for every status. */
  readonly status: IssueStatus | null
  /** Issues with at least one event in this environment. */
  readonly environment?: string
  /** Issues with at least one event in this release. */
  readonly release?: string
  /** Case-insensitive substring of the title. */
  readonly q?: string
  /** The terms of `query=` (docs/issues.md#search-syntax), all of which hold. */
  readonly search?: readonly SearchFilter[]
  /** The order, each descending then by id descending; default `last_seen`. */
  readonly sort?: IssueSort
  /** Rows strictly after this position in the order of `sort` (a count for `times_seen`). */
  readonly after?: KeysetCursor | CountCursor
  readonly limit: number
}

/** What {@link IssueTriageStore.changeIssues} changes; absent fields stay as they are. */
export interface IssueChange {
  /** A status other than `ignored` clears the ignore condition. */
  readonly status?: IssueStatus
  /** With `status: 'ignored'`: the condition that reopens it; without one, ignored for good. */
  readonly ignoreUntil?: IgnoreCondition
  /** The user to assign (a member of the project: the caller checks), or `null` to unassign. */
  readonly assigneeId?: string | null
}

/** Filters of {@link ReadStore.listEvents}; absent fields do not filter. */
export interface EventQuery {
  readonly projectId: string
  readonly eventType?: EventType
  readonly level?: string
  readonly environment?: string
  readonly release?: string
  readonly traceId?: string
  readonly requestId?: string
  readonly sessionId?: string
  readonly userId?: string
  readonly issueId?: string
  /** Case-insensitive substring of the message. */
  readonly q?: string
  /** The terms of `query=` (docs/issues.md#search-syntax), all of which hold. */
  readonly search?: readonly SearchFilter[]
  /** Inclusive lower bound of `occurred_at`. */
  readonly since?: Date
  /** Exclusive upper bound of `occurred_at`. */
  readonly until?: Date
  /** Rows strictly after this position in (occurred_at desc, id desc) order. */
  readonly after?: KeysetCursor
  readonly limit: number
}

/** Filters of {@link ReadStore.listMonitors}. */
export interface MonitorQuery {
  readonly projectId: string
  readonly environment?: string
  /** Exact slug: the monitors of one job, one per environment. */
  readonly slug?: string
  /** Rows strictly after this position in (last_check_in_at desc, id desc) order. */
  readonly after?: KeysetCursor
  readonly limit: number
}

/** Filters of {@link ReadStore.listCheckIns}: the check-ins of one monitor; absent fields do not filter. */
export interface CheckInQuery {
  readonly projectId: string
  readonly monitorId: string
  /** Exact status as sent. */
  readonly status?: string
  /** Inclusive lower bound of `occurred_at`. */
  readonly since?: Date
  /** Exclusive upper bound of `occurred_at`. */
  readonly until?: Date
  /** Rows strictly after this position in (occurred_at desc, id desc) order. */
  readonly after?: KeysetCursor
  readonly limit: number
}

/** Filters of {@link ReadStore.listDeployments}; absent fields do not filter. */
export interface DeploymentQuery {
  readonly projectId: string
  readonly environment?: string
  readonly release?: string
  readonly repository?: string
  /** Only deployments with `deployed_at` at or before this time. */
  readonly deployedBefore?: Date
  /** Rows strictly after this position in (deployed_at desc, id desc) order. */
  readonly after?: KeysetCursor
  readonly limit: number
}

/** Filters of {@link ReadStore.summarizeTransactions}: transactions with `since <= occurred_at < until`. */
export interface TransactionQuery {
  readonly projectId: string
  readonly since: Date
  readonly until: Date
  readonly environment?: string
  readonly release?: string
  /** At most this many transaction names, busiest first. */
  readonly limit: number
}

/** Filters of {@link ReadStore.metricBuckets}. */
export interface MetricQuery {
  readonly projectId: string
  /** The metric's name: the `message` of `metric` events. */
  readonly name: string
  readonly since: Date
  readonly until: Date
  readonly intervalSeconds: number
  readonly environment?: string
  readonly release?: string
}

/** Filters of {@link ReadStore.listRootSpans}: spans without a parent. */
export interface RootSpanQuery {
  readonly projectId: string
  /** Kinds to list (default server and browser). */
  readonly kinds: readonly string[]
  readonly since?: Date
  readonly until?: Date
  readonly environment?: string
  readonly release?: string
  /** Case-insensitive substring of the name. */
  readonly q?: string
  /** Rows strictly after this position in (started_at desc, id desc) order. */
  readonly after?: KeysetCursor
  readonly limit: number
}

/** Filters of {@link ReadStore.issueActivity}: events of these issues with `since <= occurred_at < until`. */
export interface IssueActivityQuery {
  readonly projectId: string
  readonly issueIds: readonly string[]
  readonly since: Date
  readonly until: Date
  readonly intervalSeconds: number
}

/** Filters of {@link ReadStore.transactionLatency}: transactions with `since <= occurred_at < until`. */
export interface TransactionLatencyQuery {
  readonly projectId: string
  /** One transaction name (`transaction_name`, else the message); absent: all transactions. */
  readonly name?: string
  readonly since: Date
  readonly until: Date
  readonly intervalSeconds: number
  readonly environment?: string
  readonly release?: string
}
