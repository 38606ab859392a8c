import type { DeploymentRecord, IssueRecord } from './read-records'

/** Sessions of a release over a window, by how they ended (docs/release-health.md). */
export interface SessionTotals {
  readonly healthy: number
  readonly errored: number
  readonly abnormal: number
  readonly crashed: number
}

/** One release's health over a window, as the store sums it. */
export interface ReleaseHealthRecord {
  readonly version: string
  readonly firstSeenAt: Date
  readonly lastSeenAt: Date
  readonly sessions: SessionTotals
  /** Distinct users over the window's whole hours, and those with a crashed session. */
  readonly users: { readonly total: number; readonly crashed: number }
  /** Its sessions in the adoption window, and every release's there (the same environment). */
  readonly adoption: { readonly sessions: number; readonly ofAll: number }
}

/** A window of release health: one environment or (`null`) all of them together. */
export interface ReleaseWindow {
  readonly projectId: string
  readonly environment: string | null
  /** Inclusive; user counts start at its hour. */
  readonly since: Date
  /** Exclusive. */
  readonly until: Date
  /** Start of the adoption window (its end is `until`'s now: the last 24 h). */
  readonly adoptionSince: Date
}

/** A page of releases: newest last seen first, (last_seen_at desc, version desc). */
export interface ReleaseListQuery extends ReleaseWindow {
  readonly limit: number
  readonly after: { readonly lastSeenAt: Date; readonly version: string } | null
}

/** One bucket of a release's series. */
export interface ReleaseSeriesBucket {
  readonly at: Date
  readonly sessions: number
  readonly errored: number
  readonly crashed: number
}

/** What the release pages read; sums of `session_minutes`, never raw updates. */
export interface ReleaseHealthStore {
  /** Releases seen in the window (any record naming them), with their health over it. */
  listReleases(query: ReleaseListQuery): Promise<readonly ReleaseHealthRecord[]>
  /** One release's health over the window, or `null` for a version never seen. */
  findRelease(
    query: ReleaseWindow & { readonly version: string },
  ): Promise<ReleaseHealthRecord | null>
  /** The release's sessions per bucket of `bucketSeconds`, oldest first, empty buckets left out. */
  releaseSeries(
    query: ReleaseWindow & { readonly version: string; readonly bucketSeconds: number },
  ): Promise<readonly ReleaseSeriesBucket[]>
  /** Issues first seen in the release, newest first. */
  releaseIssues(projectId: string, version: string, limit: number): Promise<readonly IssueRecord[]>
  /** Deployments of the release, newest first. */
  releaseDeployments(
    projectId: string,
    version: string,
    limit: number,
  ): Promise<readonly DeploymentRecord[]>
}
