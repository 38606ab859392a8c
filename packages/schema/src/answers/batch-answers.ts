import * as z from 'zod'
import { component, uuidField } from './common'

// The answers of `POST /api/v1/ingest_events/batch` (beyond the interface specification):
// Logister's batch answers, all or nothing (docs/batch-ingest.md).

/**
 * Default of the batch's envelope cap (`SERVICE_BATCH_MAX_ENVELOPES`): ten times what Logister's
 * server takes (every Logister client sends at most 100), so that bulk senders pay one request
 * and one acknowledgement per 1,000 records.
 */
export const MAX_BATCH_ENVELOPES = 1000

/** The error of a valid line in a rejected batch: Logister's own wording. */
export const ROLLED_BACK_MESSAGE = 'Batch was rolled back because another envelope was invalid'

const index = z.int().min(0).meta({
  description: 'Position of the envelope among the non-blank lines, from 0.',
})
const type = z.enum(['event', 'span']).meta({
  description: '`span` for a span (stored in the trace span store), else `event`.',
})

/** The answer for one line of a batch, in line order (Logister's per-envelope result). */
export const batchLineResultSchema = component(
  'BatchLineResult',
  z.discriminatedUnion('status', [
    z
      .strictObject({
        index,
        status: z.literal('accepted'),
        type,
        id: uuidField,
        legacy_id: z.int().nullable(),
        duplicate: z.boolean(),
      })
      .meta({
        description:
          'Stored now (`duplicate: false`) or already stored in the project (`duplicate: true`: nothing was written for it).',
      }),
    z
      .strictObject({
        index,
        status: z.enum(['rejected', 'rolled_back']),
        type,
        errors: z.array(z.string()).min(1),
      })
      .meta({
        description: `\`rejected\`: this envelope is invalid, for the reasons in \`errors\`. \`rolled_back\`: it is valid but was not stored because another one was not (\`errors\`: "${ROLLED_BACK_MESSAGE}").`,
      }),
  ]),
)
/** The answer for one line of a batch. */
export type BatchLineResult = z.output<typeof batchLineResultSchema>

const header = {
  schema_version: z.literal(1),
  batch_id: z.string().meta({
    description:
      'The `X-Logister-Batch-Id` request header when it is 1 to 128 letters, digits or `._:-`, else a generated UUID v7.',
  }),
}

/** 202 body: every line is stored or already was. */
export const batchAcceptedSchema = component(
  'BatchAccepted',
  z.strictObject({
    ...header,
    status: z.literal('accepted'),
    accepted: z.int().min(1).meta({ description: 'Every line, duplicates included.' }),
    duplicates: z.int().min(0).meta({ description: 'Lines already stored.' }),
    results: z.array(batchLineResultSchema),
  }),
)
/** 202 body of a batch. */
export type BatchAccepted = z.output<typeof batchAcceptedSchema>

/** 422 body: at least one line is invalid, so nothing was stored. */
export const batchRejectedSchema = component(
  'BatchRejected',
  z.strictObject({
    ...header,
    status: z.literal('rejected'),
    rejected: z.int().min(1).meta({ description: 'Lines answered `rejected`.' }),
    rolled_back: z.int().min(0).meta({ description: 'Lines answered `rolled_back`.' }),
    results: z.array(batchLineResultSchema),
  }),
)
/** 422 body of a batch. */
export type BatchRejected = z.output<typeof batchRejectedSchema>
