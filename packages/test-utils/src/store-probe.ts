// Type-only import by path: a package dependency on @tis/ingest would close a workspace cycle
// (@tis/ingest dev-depends on this package), which turbo rejects.
import type { IngestLog, IngestStore, ProjectionStore } from '@tis/ingest'

/** An issue as stored. */
export interface IssueSnapshot {
  readonly id: string
  readonly title: string
  readonly level: string
  readonly status: string
  readonly count: number
  readonly firstSeenAt: Date
  readonly lastSeenAt: Date
  readonly firstRelease: string | null
  readonly lastRelease: string | null
  readonly latestEventId: string | null
}

/** A monitor as stored. */
export interface MonitorSnapshot {
  readonly id: string
  /** Health: `null` until a check-in with status `ok` or `error`. */
  readonly status: 'ok' | 'error' | null
  readonly lastStatus: string
  readonly lastCheckInAt: Date
  readonly lastRelease: string | null
  readonly lastDurationMs: number | null
  readonly expectedIntervalSeconds: number
  readonly checkInCount: number
}

/** One row of a monitor's check-in history. */
export interface CheckInSnapshot {
  readonly status: string
  readonly source: 'check_in' | 'event' | 'scheduler'
  readonly eventId: string | null
}

/** A deployment as stored. */
export interface DeploymentSnapshot {
  readonly id: string
  readonly legacyId: number
  readonly commitSha: string
  readonly branch: string | null
  readonly source: 'api' | 'event'
}

/** Tables the contract counts rows of, per project. */
export type ProbeTable = 'events' | 'spans' | 'issues' | 'monitors' | 'check_ins' | 'deployments'

/**
 * Read access to what a store wrote, for the contract suite only: the port has no read paths
 * yet. Each adapter's test supplies one over its own storage.
 */
export interface StoreProbe {
  count(table: ProbeTable, projectId: string): Promise<number>
  issue(projectId: string, hash: string): Promise<IssueSnapshot | null>
  /** The issue id of a stored event; `undefined` when the event is not stored. */
  eventIssueId(eventId: string): Promise<string | null | undefined>
  monitor(projectId: string, slug: string, environment: string): Promise<MonitorSnapshot | null>
  /** History of one monitor, oldest occurrence first. */
  checkIns(projectId: string, slug: string, environment: string): Promise<CheckInSnapshot[]>
  deployment(
    projectId: string,
    repository: string,
    environment: string,
    release: string,
  ): Promise<DeploymentSnapshot | null>
  /**
   * Runs one statement of raw SQL: rows written as an old database may hold them, past every
   * check of the engine (see `extreme-rows.ts`).
   */
  exec(sql: string): Promise<void>
  /** Runs one query with text parameters and resolves its rows (tables outside the read model). */
  query<T>(sql: string, params?: readonly string[]): Promise<T[]>
}

/** A store with its ingest log and projection: what every adapter under test is. */
export type LoggedStore = IngestStore & IngestLog & ProjectionStore

/** A store under test with its probe. */
export interface StoreHarness {
  readonly store: LoggedStore
  readonly probe: StoreProbe
  /** Closes the store and drops whatever the factory created. */
  close(): Promise<void>
}

/** Creates a harness over an empty, migrated store. */
export type StoreFactory = () => Promise<StoreHarness>
