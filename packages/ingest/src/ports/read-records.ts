import type { EventType } from '@tis/schema'

/**
 * When an ignored issue returns to `unresolved` (docs/issues.md#ignore-until): after `count`
 * more events (within `windowSeconds`, when given), `users` more affected users, or the first
 * event once `until` has passed.
 */
export type IgnoreCondition =
  | { readonly count: number; readonly windowSeconds?: number }
  | { readonly users: number }
  | { readonly until: Date }

/** Triage state of an issue. */
export type IssueStatus = 'unresolved' | 'resolved' | 'ignored'

/** An issue as the read API shows it. */
export interface IssueRecord {
  readonly id: string
  readonly projectId: string
  /** The grouping key: `fingerprint:<fingerprint>` or `message:<first line>`. */
  readonly groupingKey: string
  readonly title: string
  readonly level: string
  readonly status: IssueStatus
  readonly count: number
  /** Distinct users (`user_id`) of its events, counted as they are projected. */
  readonly users: number
  readonly firstSeenAt: Date
  readonly lastSeenAt: Date
  readonly firstRelease: string | null
  readonly lastRelease: string | null
  readonly latestEventId: string | null
  /** How often a new occurrence reopened the issue after it was resolved. */
  readonly regressionCount: number
  /** The release of the occurrence that last reopened it. */
  readonly regressedInRelease: string | null
  /**
   * Every event of the issue is past its project's retention period and was deleted by a
   * retention pass: the issue keeps its totals. Absent from stores without retention (false).
   */
  readonly eventsExpired?: boolean
  /** An ignored issue's condition to reopen, or `null` (docs/issues.md#ignore-until). */
  readonly ignoreUntil?: IgnoreCondition | null
  /** The member the issue is assigned to (docs/issues.md#assignees), or `null`. */
  readonly assignee: { readonly id: string; readonly email: string } | null
}

/** A stored event as the read API shows it. */
export interface EventRecord {
  readonly id: string
  readonly legacyId: number
  readonly eventType: EventType
  readonly level: string | null
  readonly message: string | null
  readonly fingerprint: string | null
  readonly occurredAt: Date
  /** The normalised event as accepted (its `context` is shown). */
  readonly payload: Readonly<Record<string, unknown>>
  readonly issueId: string | null
  readonly environment: string | null
  readonly release: string | null
  readonly traceId: string | null
  readonly requestId: string | null
  readonly sessionId: string | null
}

/** A monitor as stored; its read-time status is computed by the read API. */
export interface MonitorRecord {
  readonly id: string
  readonly slug: string
  readonly environment: string
  /** Health set by `ok` and `error` check-ins; `null` until the first of them. */
  readonly health: 'ok' | 'error' | null
  readonly lastStatus: string
  readonly lastCheckInAt: Date
  readonly expectedIntervalSeconds: number
  readonly lastRelease: string | null
  readonly checkInCount: number
}

/**
 * Where a check-in came from: `POST /api/v1/check_ins`, an event of type `check_in`, or the
 * scheduler that marks a monitor `missed` when its deadline passes (status `missed`).
 */
export type CheckInSource = 'check_in' | 'event' | 'scheduler'

/** One stored check-in of a monitor's history. */
export interface CheckInRecord {
  /** The accepted check-in's id (compact ones), or an id of the history row (events). */
  readonly id: string
  /** The check-in's status as sent (`ok`, `error`, `in_progress`, …). */
  readonly status: string
  readonly occurredAt: Date
  readonly receivedAt: Date
  readonly durationMs: number | null
  readonly environment: string
  readonly release: string | null
  readonly traceId: string | null
  readonly requestId: string | null
  readonly source: CheckInSource
  /** The event it came from; `null` for compact check-ins. */
  readonly eventId: string | null
  /**
   * The normalised check-in (compact ones) or the normalised event (events), as accepted; for
   * the scheduler's `missed` rows: `slug`, `status`, `environment`, `expected_interval_seconds`,
   * `last_check_in_at` and `missed_after` (the deadline that passed).
   */
  readonly payload: Readonly<Record<string, unknown>>
}

/** A deployment as the read API shows it. */
export interface DeploymentRecord {
  readonly id: string
  readonly repository: string
  readonly environment: string
  readonly release: string
  readonly commitSha: string
  readonly branch: string | null
  readonly deployedAt: Date
  readonly pullRequestNumber: string | null
  readonly pullRequestUrl: string | null
  readonly releaseUrl: string | null
  readonly compareUrl: string | null
  readonly workflowRunUrl: string | null
  readonly deploymentUrl: string | null
  readonly releaseTag: string | null
  /** `api` (deployments endpoint) or `event` (taken from an event). */
  readonly source: 'api' | 'event'
}

/** Timings of one transaction name in a window. */
export interface TransactionSummary {
  /** `transaction_name`, else the message. */
  readonly name: string
  readonly count: number
  /** Transactions with a status code of 500 or more, or level `error` or `fatal`. */
  readonly errorCount: number
  /** Percentiles (linear interpolation) and average of `duration_ms`; `null` when none has one. */
  readonly p50: number | null
  readonly p95: number | null
  readonly p99: number | null
  readonly avg: number | null
}

/** One non-empty time bucket of a metric. */
export interface MetricBucket {
  /** Start of the bucket: `since + k * interval`. */
  readonly start: Date
  /** Metric events in the bucket. */
  readonly count: number
  /** Aggregates of their values (`context.value`, else `duration_ms`); `null` when none has one. */
  readonly sum: number | null
  readonly min: number | null
  readonly max: number | null
  readonly avg: number | null
}

/** A stored span as the read API shows it. */
export interface SpanRecord {
  readonly id: string
  readonly traceId: string | null
  readonly spanId: string | null
  readonly parentSpanId: string | null
  readonly name: string
  readonly kind: string | null
  readonly startedAt: Date
  readonly endedAt: Date | null
  readonly durationMs: number | null
  readonly environment: string | null
  readonly release: string | null
  /**
   * The span's status as sent (`ok`, `error`, an HTTP code, …): the top-level `status`, else
   * `context.status`; `null` when neither is set.
   */
  readonly status: string | number | null
  /** The span's `level` as sent (clients send `error` for a failed span); `null` when none. */
  readonly level: string | null
  /** The normalised span event as accepted (its `context` is shown). */
  readonly payload: Readonly<Record<string, unknown>>
}

/** Events of one issue in one time bucket (only non-empty buckets are returned). */
export interface IssueActivityBucket {
  readonly issueId: string
  /** Start of the bucket: `since + k * interval`. */
  readonly start: Date
  readonly count: number
}

/** Timings of the transactions in one non-empty time bucket. */
export interface TransactionLatencyBucket {
  /** Start of the bucket: `since + k * interval`. */
  readonly start: Date
  readonly count: number
  /** Transactions with a status code of 500 or more, or level `error` or `fatal`. */
  readonly errorCount: number
  /** Percentiles (linear interpolation) and average of `duration_ms`; `null` when none has one. */
  readonly p50: number | null
  readonly p95: number | null
  readonly p99: number | null
  readonly avg: number | null
}
