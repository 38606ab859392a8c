import * as z from 'zod'
import { component, nullableString, pageOf, storedTimeField, uuidField } from './common'

// A team's work on an issue: `GET/POST …/issues/:issue_id/comments`, `DELETE …/comments/:id` and
// `GET …/issues/:issue_id/activity` (docs/issues.md#comments-and-history).

/** Longest comment body, in characters. */
export const MAX_COMMENT_LENGTH = 10_000

/** A comment on an issue. */
export const issueCommentSchema = component(
  'IssueComment',
  z.strictObject({
    id: uuidField,
    issue_id: uuidField,
    author: nullableString.meta({ description: "The author's email; null once they are deleted." }),
    body: z.string().meta({
      description: 'Markdown as written; the dashboard renders it without HTML.',
    }),
    created_at: storedTimeField,
  }),
  'A comment on an issue, by a user who may see the project.',
)
/** A comment on an issue. */
export type IssueComment = z.output<typeof issueCommentSchema>

/** The body of `POST …/issues/:issue_id/comments`. */
export const issueCommentCreateSchema = component(
  'IssueCommentCreate',
  z.object({
    comment: z.object({
      body: z
        .string()
        .min(1)
        .max(MAX_COMMENT_LENGTH)
        .meta({
          description: `Markdown, 1 to ${MAX_COMMENT_LENGTH.toLocaleString('en-US')} characters, not only white space.`,
        }),
    }),
  }),
)

/** The answer of `POST …/comments`. */
export const issueCommentAnswerSchema = z.strictObject({ comment: issueCommentSchema })
/** The answer of `POST …/comments`. */
export type IssueCommentAnswer = z.output<typeof issueCommentAnswerSchema>

/** The answer of `GET …/comments`: one page, oldest first. */
export const issueCommentPageSchema = pageOf('comments', issueCommentSchema)
/** The answer of `GET …/comments`. */
export type IssueCommentPage = z.output<typeof issueCommentPageSchema>

/** What a history entry records. */
export const issueActivityKindSchema = z.enum([
  'status',
  'assignee',
  'comment',
  'comment_deleted',
  'ignore_met',
  'merge',
])

/** One entry of an issue's history. */
export const issueActivitySchema = component(
  'IssueActivity',
  z.strictObject({
    id: uuidField,
    kind: issueActivityKindSchema,
    actor: nullableString.meta({
      description: 'The email of the user who made the change (as it was then); null for tis.',
    }),
    data: z.record(z.string(), z.unknown()).meta({
      description:
        '`status` and `assignee`: `{from, to}` (statuses; emails or null); `comment` and `comment_deleted`: `{comment_id}`; `ignore_met`: `{condition}`, the ignore condition that reopened the issue (actor null); `merge`: `{merged: [{id, title, count}]}`, the issues merged into this one.',
    }),
    created_at: storedTimeField,
  }),
  'One change of an issue: its status, its assignee, a comment added or deleted, a met ignore condition, a merge.',
)
/** One entry of an issue's history. */
export type IssueActivity = z.output<typeof issueActivitySchema>

/** The answer of `GET …/activity`: one page, oldest first. */
export const issueActivityPageSchema = pageOf('activity', issueActivitySchema)
/** The answer of `GET …/activity`. */
export type IssueActivityPage = z.output<typeof issueActivityPageSchema>
