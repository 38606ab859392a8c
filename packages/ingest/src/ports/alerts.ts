// The alert ports. Configuration (channels, rules) and the delivery log are plain
// records; evaluation happens in the store, in the transaction of the state change that causes
// a notification (see docs/alerts.md, "How a notification is made"), so an acknowledged event
// that opens an issue is recorded as exactly one notification per rule and channel.

/** What a rule fires on. */
export type AlertTrigger =
  | 'new_issue'
  | 'regression'
  | 'spike'
  | 'monitor_missed'
  | 'monitor_failed'
  | 'monitor_recovered'
  | 'release_crash_free_below'

/** How a channel is reached. */
export type AlertChannelType = 'webhook' | 'slack' | 'email'

/** A project's alert channel as stored; its secret is never read back except to sign. */
export interface AlertChannelRecord {
  readonly id: string
  readonly projectId: string
  readonly name: string
  readonly type: AlertChannelType
  /** Webhook and Slack: the URL posted to; email: `null`. */
  readonly url: string | null
  /** Email: the recipients; else `null`. */
  readonly to: readonly string[] | null
  readonly createdAt: Date
}

/** A new channel; `secret` is the webhook's HMAC key (`null` for the other types). */
export interface NewAlertChannel extends AlertChannelRecord {
  readonly secret: string | null
}

/** A project's alert rule as stored. */
export interface AlertRuleRecord {
  readonly id: string
  readonly projectId: string
  readonly name: string
  readonly trigger: AlertTrigger
  /** The channels it notifies, in the order given when it was created. */
  readonly channelIds: readonly string[]
  /** Only causes in this environment (`null`: any). */
  readonly environment: string | null
  /** Only events of this level (`null`: any); issue triggers only. */
  readonly level: string | null
  /**
   * Spike: fires when an issue has more than `threshold` events in `windowSeconds`.
   * `release_crash_free_below`: when a release's crash-free sessions over the last
   * `windowSeconds` fall below `threshold` (a fraction).
   */
  readonly threshold: number | null
  readonly windowSeconds: number | null
  /** After firing for one issue or monitor, the rule stays silent for it this long. */
  readonly quietSeconds: number
  readonly createdAt: Date
}

/** Where a delivery is. `pending` until sent or given up on. */
export type AlertDeliveryStatus = 'pending' | 'delivered' | 'failed'

/**
 * One notification to one channel: the outbox row. `id` is the delivery id receivers
 * deduplicate on, the same on every attempt.
 */
export interface AlertDeliveryRecord {
  readonly id: string
  readonly projectId: string
  /** `null` for a test delivery or once the rule was deleted. */
  readonly ruleId: string | null
  readonly ruleName: string | null
  /** `null` once the channel was deleted. */
  readonly channelId: string | null
  readonly channelName: string
  readonly channelType: AlertChannelType
  /** The rule's trigger, or `test`. */
  readonly trigger: AlertTrigger | 'test'
  /** The issue or monitor it is about; `null` for a test. */
  readonly subjectId: string | null
  /** The facts the message is rendered from (see {@link AlertPayload}). */
  readonly payload: AlertPayload
  readonly status: AlertDeliveryStatus
  readonly attempts: number
  readonly nextAttemptAt: Date
  readonly lastError: string | null
  /** The receiver's HTTP status of the last attempt (webhook, Slack); `null` otherwise. */
  readonly responseCode: number | null
  readonly createdAt: Date
  readonly deliveredAt: Date | null
}

/**
 * The facts of a notification, snapshotted in the transaction that recorded it (snake_case, as
 * the webhook body shows them).
 */
export interface AlertPayload {
  /** Issue triggers: the issue after the change. */
  readonly issue?: {
    readonly id: string
    readonly title: string
    readonly level: string
    readonly status: string
    readonly count: number
    /** Affected users; absent from notifications recorded before tis counted them. */
    readonly users?: number
    readonly first_seen_at: string
    readonly last_seen_at: string
    readonly last_release: string | null
    readonly regression_count: number
  }
  /** Issue triggers: the event (of the change) that matched the rule's filters. */
  readonly event?: {
    readonly id: string
    readonly environment: string | null
    readonly level: string | null
    readonly release: string | null
    readonly message: string | null
  }
  /** Spike: what was counted. */
  readonly spike?: {
    readonly count: number
    readonly threshold: number
    readonly window_seconds: number
  }
  /** Monitor triggers: the monitor after the change. */
  readonly monitor?: {
    readonly id: string
    readonly slug: string
    readonly environment: string
    /** `ok`, `error` or `missed`: the state it moved to. */
    readonly state: string
    readonly last_status: string
    readonly last_check_in_at: string
    readonly expected_interval_seconds: number
    /** Missed: the deadline that passed. */
    readonly missed_after?: string
  }
  /** `release_crash_free_below`: the release as it was when its rate fell below. */
  readonly release?: {
    readonly version: string
    /** The rule's environment; `null`: all environments together. */
    readonly environment: string | null
    readonly crash_free_sessions: number
    readonly sessions: number
    readonly crashed: number
    readonly threshold: number
    readonly window_seconds: number
  }
  /**
   * A summary: the causes a rule folded in one minute beyond its ten messages a minute
   * (instead of `issue`, `event`, `spike` and `monitor`).
   */
  readonly summary?: AlertSummary
}

/** The causes a rule folded in one minute (see {@link AlertPayload}). */
export interface AlertSummary {
  /** How many causes (issues or monitors) this summary stands for. */
  readonly count: number
  /** The minute they happened in: from `since` (inclusive) to `until`. */
  readonly since: string
  readonly until: string
  /** Issue triggers: the first (up to ten) of the issues, as `issue` shows them. */
  readonly issues?: ReadonlyArray<NonNullable<AlertPayload['issue']>>
  /** Monitor triggers: the first (up to ten) of the monitors, as `monitor` shows them. */
  readonly monitors?: ReadonlyArray<NonNullable<AlertPayload['monitor']>>
  /** Release triggers: the first (up to ten) of the releases, as `release` shows them. */
  readonly releases?: ReadonlyArray<NonNullable<AlertPayload['release']>>
}

/** A claimed pending delivery with what sending it needs (the channel as it is now). */
export interface ClaimedAlertDelivery extends AlertDeliveryRecord {
  readonly projectName: string
  /** The channel's current target; all `null` when the channel was deleted. */
  readonly url: string | null
  readonly to: readonly string[] | null
  readonly secret: string | null
}

/** The outcome of one attempt, recorded by {@link AlertDeliveryStore.finishAlertDelivery}. */
export interface AlertAttempt {
  /** `delivered`; `pending` to retry at `nextAttemptAt`; `failed` to give up. */
  readonly status: AlertDeliveryStatus
  readonly at: Date
  readonly nextAttemptAt: Date | null
  readonly responseCode: number | null
  readonly error: string | null
}

/** A page of a project's delivery log, newest first. */
export interface AlertDeliveryQuery {
  readonly projectId: string
  readonly limit: number
  /** Keyset: only deliveries older than this (created_at, id). */
  readonly before?: { readonly createdAt: Date; readonly id: string }
  readonly status?: AlertDeliveryStatus
}

/** Channels, rules and the delivery log: what the management API and the dashboard read and write. */
export interface AlertConfigStore {
  createAlertChannel(input: NewAlertChannel): Promise<AlertChannelRecord>
  /** Oldest first. */
  listAlertChannels(projectId: string): Promise<readonly AlertChannelRecord[]>
  /** Deletes a channel (and its place in rules); `false` when the project has no such channel. */
  deleteAlertChannel(projectId: string, channelId: string): Promise<boolean>
  /** Stores a rule; every channel id must be one of the project's (the engine checks first). */
  createAlertRule(input: AlertRuleRecord): Promise<AlertRuleRecord>
  /** Oldest first. */
  listAlertRules(projectId: string): Promise<readonly AlertRuleRecord[]>
  /** `false` when the project has no such rule. */
  deleteAlertRule(projectId: string, ruleId: string): Promise<boolean>
  listAlertDeliveries(query: AlertDeliveryQuery): Promise<readonly AlertDeliveryRecord[]>
  /**
   * Records a test notification to one channel (the "send test" button): a pending delivery
   * with trigger `test`; `null` when the project has no such channel.
   */
  createTestAlertDelivery(input: {
    readonly id: string
    readonly projectId: string
    readonly channelId: string
    readonly payload: AlertPayload
    readonly createdAt: Date
  }): Promise<AlertDeliveryRecord | null>
}

/** The delivery side: background work claims due notifications and records each attempt. */
export interface AlertDeliveryStore {
  /**
   * Claims up to `limit` pending deliveries due at `now` whose lease is free, leasing them
   * until `leaseUntil` and counting the attempt; several processes never claim one row at once.
   */
  claimAlertDeliveries(
    now: Date,
    limit: number,
    leaseUntil: Date,
  ): Promise<readonly ClaimedAlertDelivery[]>
  /** Records an attempt's outcome and frees the lease. */
  finishAlertDelivery(id: string, attempt: AlertAttempt): Promise<void>
  /**
   * Moves every monitor whose deadline (last check-in + interval + grace, grace =
   * max(interval / 2, 30 s)) passed before `now` and that is not already `missed` to `missed`:
   * records the transition in its history and the notifications of its `monitor_missed` rules,
   * in one transaction. Safe to run from several processes at once. Resolves how many moved.
   */
  markMissedMonitors(now: Date, limit: number): Promise<number>
  /**
   * Records the summaries of the minutes before `now` in which rules folded causes beyond
   * their ten messages a minute: for up to `limit` (rule, minute) pairs, one pending delivery
   * per channel of the rule with the {@link AlertPayload} `summary`. Safe to run from several
   * processes at once; each folded cause is summarized once. Resolves how many deliveries it
   * recorded.
   */
  summarizeAlertBursts(now: Date, limit: number): Promise<number>
  /**
   * Checks every `release_crash_free_below` rule at `now`: a release whose crash-free sessions
   * over the rule's window fell below its threshold (it was at or above it, or not checked yet)
   * records the rule's notifications in the same transaction as that state; one that is back
   * at or above it can fire again later. Safe to run from several processes at once: each fall
   * is recorded once. Resolves how many deliveries it recorded.
   */
  checkReleaseHealth(now: Date): Promise<number>
}
