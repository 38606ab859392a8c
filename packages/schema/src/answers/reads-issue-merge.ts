import * as z from 'zod'
import { component, uuidField } from './common'
import { issueSchema } from './reads-issues'

// `POST …/issues/merge` and the pointers merged ids answer with (docs/issues.md#merging-issues).

/** The most issues one merge may name. */
export const MAX_MERGE_ISSUES = 100

/** The body of `POST …/issues/merge`. */
export const issueMergeSchema = component(
  'IssueMerge',
  z.object({
    merge: z.object({
      issue_ids: z
        .array(uuidField)
        .min(2)
        .max(MAX_MERGE_ISSUES)
        .meta({
          examples: [
            ['0190b1c2-3d4e-7f80-9a1b-2c3d4e5f6071', '0190b1c2-3d4e-7f80-9a1b-2c3d4e5f6072'],
          ],
          description: `2 to ${MAX_MERGE_ISSUES} ids of the project's issues; an id merged before stands for the issue it was merged into.`,
        }),
      into: uuidField.optional().meta({
        description:
          'One of `issue_ids`: the issue to keep. By default, the one with the most events (then the oldest).',
      }),
    }),
  }),
)
/** The body of `POST …/issues/merge`. */
export type IssueMerge = z.output<typeof issueMergeSchema>

/** The answer of `POST …/issues/merge`. */
export const issueMergeAnswerSchema = z.strictObject({
  issue: issueSchema,
  merged: z.array(uuidField).meta({
    description:
      'The ids merged into `issue` by this request (empty when they all were already: a retried merge).',
  }),
})
/** The answer of `POST …/issues/merge`. */
export type IssueMergeAnswer = z.output<typeof issueMergeAnswerSchema>

/** The body of the 301 (or 308) a merged issue's id answers with. */
export const issueMergedSchema = component(
  'IssueMerged',
  z.strictObject({
    error: z.string(),
    merged_into: uuidField.meta({ description: 'The id of the issue it now belongs to.' }),
  }),
  'A merged issue: `Location` names the same path under the issue it was merged into.',
)
/** The body of the 301 (or 308) a merged issue's id answers with. */
export type IssueMerged = z.output<typeof issueMergedSchema>
