import * as z from 'zod'
import {
  component,
  nullableString,
  pageOf,
  storedIntegerField,
  storedTimeField,
  uuidField,
} from './common'
import { recordIdField } from './reads-events'

// The issues inbox's answers: `GET …/issues`, `GET …/issues/:issue_id` and its PATCH.

/** The status of an issue. */
export const issueStatusSchema = z.enum(['unresolved', 'resolved', 'ignored'])

/** An issue (`issueJson`). */
export const issueSchema = component(
  'Issue',
  z.strictObject({
    id: uuidField,
    fingerprint: nullableString.meta({ description: 'null when grouped by message' }),
    title: z.string(),
    level: z.string(),
    status: issueStatusSchema,
    count: storedIntegerField,
    users: storedIntegerField.meta({
      description:
        'Distinct users of its events (`user_id`: the user id, else email, username or IP address; docs/issues.md#affected-users).',
    }),
    first_seen_at: storedTimeField,
    last_seen_at: storedTimeField,
    first_release: nullableString,
    last_release: nullableString,
    latest_event_id: recordIdField.nullable(),
    regression_count: storedIntegerField.meta({
      description: 'How often a new occurrence reopened the issue after it was resolved.',
    }),
    regressed_in_release: nullableString.meta({
      description: 'The release of the occurrence that last reopened it.',
    }),
    ignore_until: z
      .union([
        z.strictObject({ count: z.int(), window_seconds: z.int().optional() }),
        z.strictObject({ users: z.int() }),
        z.strictObject({ until: storedTimeField }),
      ])
      .nullable()
      .meta({
        description:
          'An ignored issue returns to unresolved when this is met (docs/issues.md#ignore-until); null when ignored for good or not ignored.',
      }),
    assignee: nullableString.meta({
      description:
        'The email of the project member the issue is assigned to, or null (docs/issues.md#assignees).',
    }),
    events_expired: z.boolean().meta({
      description:
        "Every event of the issue is older than the project's retention period and deleted; the issue keeps its count and first and last seen (docs/self-hosting.md, Retention).",
    }),
    sparkline: z.array(z.int().min(0)).length(24).optional().meta({
      description:
        'Only with `sparkline=24h`: the events of the issue in each of the last 24 whole UTC hours, oldest first; the last is the current hour so far.',
    }),
  }),
  'Errors grouped by fingerprint, else by the first line of the message.',
)
/** An issue as the read API answers it. */
export type Issue = z.output<typeof issueSchema>

/** The body of `PATCH …/issues/:issue_id`. */
export const issueUpdateSchema = component(
  'IssueUpdate',
  z.object({
    issue: z.object({
      status: issueStatusSchema.optional(),
      assignee: z.string().nullable().optional().meta({
        description:
          'The email of a member of the project (its owner or a member) to assign, or null to unassign.',
      }),
      ignore_until: z
        .union([
          z.object({
            count: z.int().min(1),
            window_seconds: z.int().min(60).max(2_592_000).optional(),
          }),
          z.object({ users: z.int().min(1) }),
          z.object({ until: z.iso.datetime({ offset: true }) }),
        ])
        .nullable()
        .optional()
        .meta({
          description:
            'With `"status": "ignored"`: reopen after N more events (within `window_seconds`), N more users, or the first event after `until`.',
        }),
    }),
  }),
)
/** The body of `PATCH …/issues/:issue_id`. */
export type IssueUpdate = z.output<typeof issueUpdateSchema>

/** The answer of `GET …/issues`: one page of issues. */
export const issuePageSchema = pageOf('issues', issueSchema)
/** The answer of `GET …/issues`. */
export type IssuePage = z.output<typeof issuePageSchema>

/** The answer of `GET …/issues/:issue_id` and of its PATCH. */
export const issueAnswerSchema = z.strictObject({ issue: issueSchema })
/** The answer of `GET …/issues/:issue_id` and of its PATCH. */
export type IssueAnswer = z.output<typeof issueAnswerSchema>

/** The most issues one bulk change may change. */
export const MAX_BULK_ISSUES = 1000

/** The body of `PATCH …/issues`: one change to the issues named by id or found by a search. */
export const issueBulkUpdateSchema = component(
  'IssueBulkUpdate',
  z.object({
    issues: z.union([
      z.object({ ids: z.array(uuidField).min(1).max(MAX_BULK_ISSUES) }),
      z.object({
        query: z.string().meta({
          description:
            'A search (docs/issues.md#search-syntax); unresolved issues unless it names a status. More than the cap is a 422.',
        }),
      }),
    ]),
    update: issueUpdateSchema.shape.issue,
  }),
)

/** The answer of `PATCH …/issues`. */
export const issueBulkAnswerSchema = z.strictObject({
  matched: z.int().min(0).meta({ description: "The project's issues named or found." }),
  changed: z.int().min(0).meta({
    description: 'Those of them the update changed (the others were so already).',
  }),
})
/** The answer of `PATCH …/issues`. */
export type IssueBulkAnswer = z.output<typeof issueBulkAnswerSchema>
