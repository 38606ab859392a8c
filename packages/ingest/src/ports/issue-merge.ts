import type { IssueActor } from './issue-triage'
import type { IssueRecord } from './read-records'

// Merging issues (docs/issues.md#merging-issues): one issue keeps its id, the others' events,
// users, comments and history, and the future events of their fingerprints, belong to it.

/** What a merge did: the issue kept, and the ids merged into it now. */
export interface IssueMergeResult {
  readonly ok: true
  readonly issue: IssueRecord
  /** The issues merged into `issue` by this call (none when all were merged already). */
  readonly merged: readonly string[]
}

/** An id that is neither an issue of the project nor one merged into one of them. */
export interface IssueMergeMissing {
  readonly ok: false
  readonly missing: string
}

/** Merges issues, and finds where merged ones went. */
export interface IssueMergeStore {
  /**
   * Merges the project's issues of `issueIds` (an id merged before stands for the issue it was
   * merged into) into `into`, or else the one with the most events (then the oldest): in one
   * transaction, serialised with the projection's rounds, so no event is lost or counted twice.
   * `into` must be one of `issueIds`. Records a `merge` entry by `by` on the kept issue.
   */
  mergeIssues(
    projectId: string,
    issueIds: readonly string[],
    into: string | null,
    by: IssueActor,
  ): Promise<IssueMergeResult | IssueMergeMissing>
  /** The id of the issue that the project's merged issue `issueId` now belongs to, or `null`. */
  findMergedIssue(projectId: string, issueId: string): Promise<string | null>
}
