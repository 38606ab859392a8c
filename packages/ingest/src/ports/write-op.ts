import type {
  NormalizedCheckIn,
  NormalizedDeployment,
  NormalizedEvent,
  SessionRecord,
} from '@tis/schema'

/** How an accepted error joins its issue. */
export interface IssueGrouping {
  /** SHA-256 hex of the grouping key (fingerprint, else first line of message). */
  readonly hash: string
  /** The grouping key itself, bounded to 1,024 characters. */
  readonly key: string
  /** Issue title: first line of the message, bounded to 255 characters. */
  readonly title: string
  readonly level: string
}

/** A monitor update from a check-in (either endpoint). */
export interface MonitorUpdate {
  readonly slug: string
  readonly environment: string
  /** The check-in's status as sent (`ok`, `error`, or another string). */
  readonly status: string
  /** New monitor health: `ok`, `error`, or `null` to leave it as it is (other statuses). */
  readonly health: 'ok' | 'error' | null
  readonly release: string | null
  readonly expectedIntervalSeconds: number
  readonly durationMs: number | null
  readonly traceId: string | null
  readonly requestId: string | null
  readonly occurredAt: Date
}

/** A deployment to index, from the deployments endpoint or from an event. */
export interface DeploymentUpsert {
  readonly repository: string
  readonly environment: string
  readonly release: string
  readonly commitSha: string
  /** `api` records overwrite; `event` records only fill a (project, repository, environment, release) not yet known. */
  readonly source: 'api' | 'event'
  /** The full normalised deployment (api) or the fields taken from the event. */
  readonly record: Readonly<Record<string, unknown>>
  readonly deployedAt: Date
}

/** Fields every write carries. */
export interface WriteBase {
  /**
   * Id of the new record: the client's `event_id`, an id derived from a span's
   * (trace_id, span_id), or an engine-generated UUID v7.
   */
  readonly id: string
  readonly projectId: string
  readonly receivedAt: Date
  /**
   * The id may already be stored (it came from the client or from the span's ids): the store
   * checks, and answers a repeat as a duplicate instead of writing it again.
   */
  readonly dedupe?: boolean
}

/** One record to persist. A batch of them is written atomically. */
export type WriteOp =
  | (WriteBase & {
      readonly type: 'event'
      readonly event: NormalizedEvent
      readonly occurredAt: Date
      /** Present for `error` events: the issue to create or update. */
      readonly issue: IssueGrouping | null
      /** Present for `check_in` events: the monitor to update. */
      readonly monitor: MonitorUpdate | null
      /** Present when the event carries release + repository + a valid commit sha. */
      readonly deployment: DeploymentUpsert | null
    })
  | (WriteBase & {
      readonly type: 'span'
      readonly event: NormalizedEvent
      readonly occurredAt: Date
    })
  | (WriteBase & {
      readonly type: 'check_in'
      readonly checkIn: NormalizedCheckIn
      readonly monitor: MonitorUpdate
    })
  | (WriteBase & {
      readonly type: 'deployment'
      readonly deployment: NormalizedDeployment
      readonly upsert: DeploymentUpsert
    })
  | (WriteBase & {
      /**
       * A release-health session update or aggregate (docs/release-health.md): its id is
       * derived from its content, so a retried update is a repeat (`dedupe`).
       */
      readonly type: 'session'
      readonly session: SessionRecord
    })
