import type { IssueChange, KeysetCursor } from './read-queries'
import type { IssueRecord } from './read-records'

// A team's work on an issue (docs/issues.md): comments, and the history of every change.

/** Who made a change, and when: `userId` `null` for tis itself (an ignore condition met). */
export interface IssueActor {
  readonly userId: string | null
  readonly at: Date
}

/** A comment on an issue. */
export interface IssueCommentRecord {
  readonly id: string
  readonly issueId: string
  /** The author, `null` once their user is deleted. */
  readonly author: { readonly id: string; readonly email: string } | null
  /** Markdown as written; rendered without HTML. */
  readonly body: string
  readonly createdAt: Date
}

/** What an activity entry records. */
export type IssueHistoryKind =
  | 'status'
  | 'assignee'
  | 'comment'
  | 'comment_deleted'
  | 'ignore_met'
  | 'merge'

/** One change of an issue's history. */
export interface IssueHistoryEntry {
  readonly id: string
  readonly kind: IssueHistoryKind
  /** The user who made it (their email then), `null` for tis itself or a deleted user. */
  readonly actor: string | null
  /**
   * `status`: `{from, to}`; `assignee`: `{from, to}` (emails or null); `comment` and
   * `comment_deleted`: `{comment_id}`; `ignore_met`: `{condition}` (by tis, actor `null`);
   * `merge`: `{merged: [{id, title, count}]}`, the issues merged into this one.
   */
  readonly data: Readonly<Record<string, unknown>>
  readonly createdAt: Date
}

/** A page of an issue's comments or activity, oldest first: (created_at, id) after `after`. */
export interface IssueHistoryQuery {
  readonly projectId: string
  readonly issueId: string
  readonly after?: KeysetCursor
  readonly limit: number
}

/** The comments and history of issues. Each change and its activity entry commit together. */
export interface IssueTriageStore {
  /**
   * Changes the status and assignee of the project's issues of `issueIds` (others, and ids that
   * are not UUIDs, are left out), recording a history entry by `by` for each issue and field
   * that changed, in one statement: all or nothing. Resolves the issues after the change (in id
   * order) and how many of them changed.
   */
  changeIssues(
    projectId: string,
    issueIds: readonly string[],
    change: IssueChange,
    by: IssueActor,
  ): Promise<{ readonly issues: readonly IssueRecord[]; readonly changed: number }>
  /** Adds a comment (and its activity entry); `null` when the issue is not the project's. */
  addIssueComment(comment: {
    readonly id: string
    readonly projectId: string
    readonly issueId: string
    readonly authorId: string
    readonly body: string
    readonly createdAt: Date
  }): Promise<IssueCommentRecord | null>
  listIssueComments(query: IssueHistoryQuery): Promise<readonly IssueCommentRecord[]>
  findIssueComment(
    projectId: string,
    issueId: string,
    commentId: string,
  ): Promise<IssueCommentRecord | null>
  /** Deletes a comment (recording who did); false when it was not there. */
  deleteIssueComment(
    projectId: string,
    issueId: string,
    commentId: string,
    by: IssueActor,
  ): Promise<boolean>
  listIssueHistory(query: IssueHistoryQuery): Promise<readonly IssueHistoryEntry[]>
}
