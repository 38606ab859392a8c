import { MAX_BATCH_ENVELOPES, ROLLED_BACK_MESSAGE } from '@tis/ingest'
import type { OpenApiExtension, OpenApiObject } from '@tis/schema'

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })
const json = (schema: OpenApiObject) => ({ 'application/json': { schema } })
const error = (description: string) => ({ description, content: json(ref('Error')) })
const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': { $ref: '#/components/headers/X-RateLimit-Limit' },
  'X-RateLimit-Remaining': { $ref: '#/components/headers/X-RateLimit-Remaining' },
  'X-RateLimit-Reset': { $ref: '#/components/headers/X-RateLimit-Reset' },
}
const index = {
  type: 'integer',
  minimum: 0,
  description: 'Position of the envelope among the non-blank lines, from 0.',
}
const type = {
  enum: ['event', 'span'],
  description: '`span` for a span (stored in the trace span store), else `event`.',
}
const header = {
  schema_version: { const: 1 },
  batch_id: {
    type: 'string',
    description:
      'The `X-Logister-Batch-Id` request header when it is 1 to 128 letters, digits or `._:-`, else a generated UUID v7.',
  },
}

const lineResult: OpenApiObject = {
  oneOf: [
    {
      type: 'object',
      description:
        'Stored now (`duplicate: false`) or already stored in the project (`duplicate: true`: nothing was written for it).',
      required: ['index', 'status', 'type', 'id', 'legacy_id', 'duplicate'],
      properties: {
        index,
        status: { const: 'accepted' },
        type,
        id: { type: 'string', format: 'uuid' },
        legacy_id: { type: ['integer', 'null'] },
        duplicate: { type: 'boolean' },
      },
    },
    {
      type: 'object',
      description: `\`rejected\`: this envelope is invalid, for the reasons in \`errors\`. \`rolled_back\`: it is valid but was not stored because another one was not (\`errors\`: "${ROLLED_BACK_MESSAGE}").`,
      required: ['index', 'status', 'type', 'errors'],
      properties: {
        index,
        status: { enum: ['rejected', 'rolled_back'] },
        type,
        errors: { type: 'array', items: { type: 'string' }, minItems: 1 },
      },
    },
  ],
}

/**
 * `POST /api/v1/ingest_events/batch` (beyond the interface specification): several event
 * envelopes in one request, all or nothing, with Logister's answers.
 */
export const BATCH_OPENAPI: OpenApiExtension = {
  schemas: {
    BatchLineResult: lineResult,
    BatchAccepted: {
      type: 'object',
      required: ['schema_version', 'batch_id', 'status', 'accepted', 'duplicates', 'results'],
      properties: {
        ...header,
        status: { const: 'accepted' },
        accepted: { type: 'integer', minimum: 1, description: 'Every line, duplicates included.' },
        duplicates: { type: 'integer', minimum: 0, description: 'Lines already stored.' },
        results: { type: 'array', items: ref('BatchLineResult') },
      },
    },
    BatchRejected: {
      type: 'object',
      required: ['schema_version', 'batch_id', 'status', 'rejected', 'rolled_back', 'results'],
      properties: {
        ...header,
        status: { const: 'rejected' },
        rejected: { type: 'integer', minimum: 1, description: 'Lines answered `rejected`.' },
        rolled_back: { type: 'integer', minimum: 0, description: 'Lines answered `rolled_back`.' },
        results: { type: 'array', items: ref('BatchLineResult') },
      },
    },
  },
  paths: {
    '/api/v1/ingest_events/batch': {
      post: {
        operationId: 'ingestEventBatch',
        tags: ['ingest'],
        summary: 'Ingest several events at once (NDJSON), all or nothing',
        description: `Up to \`SERVICE_BATCH_MAX_ENVELOPES\` (${MAX_BATCH_ENVELOPES}) envelopes, one \`{"event":…}\` per line, each with an \`event_id\` (alias \`uuid\`) so that retries are safe; optionally \`Content-Encoding: gzip\`. Caps: \`SERVICE_BATCH_MAX_BODY_BYTES\` as sent (2 MiB), \`SERVICE_BATCH_MAX_DECOMPRESSED_BYTES\` once decompressed (8 MiB), \`SERVICE_BATCH_MAX_ENVELOPE_BYTES\` per envelope (1 MiB). **All or nothing**, as Logister's own batch endpoint: 202 when every line is stored or already was; 422 when any line is invalid (not JSON, no envelope, validation, no \`event_id\`, an event type a mobile token may not send, another project's \`event_id\`), and then nothing is stored. The rate limit of \`POST /api/v1/ingest_events\` counts one unit per envelope: a batch that does not fit in what is left of the window is a whole-request 429 and takes none of it. A store failure answers 503 or 500 and stores nothing.`,
        security: [{ bearerAuth: [] }, { apiKeyHeader: [] }],
        parameters: [
          {
            name: 'X-Logister-Batch-Id',
            in: 'header',
            required: false,
            schema: { type: 'string', maxLength: 128, pattern: '^[A-Za-z0-9._:-]+$' },
            description: 'The client’s id of this batch, echoed as `batch_id`.',
          },
        ],
        requestBody: {
          required: true,
          content: {
            'application/x-ndjson': {
              schema: { type: 'string', description: 'One EventEnvelope (JSON) per line.' },
              example:
                '{"event":{"event_id":"0190b1c2-3d4e-7f80-9a1b-2c3d4e5f6071","event_type":"log","message":"a"}}\n{"event":{"event_id":"0190b1c2-3d4e-7f80-9a1b-2c3d4e5f6072","event_type":"log","message":"b"}}\n',
            },
          },
        },
        responses: {
          '202': {
            description: 'Every line is stored, or already was (duplicates).',
            headers: RATE_LIMIT_HEADERS,
            content: json(ref('BatchAccepted')),
          },
          '400': error('The gzip body cannot be decompressed, or the batch has no line.'),
          '401': { $ref: '#/components/responses/Unauthorized' },
          '413': error(
            `The body is over a cap (as sent, decompressed or one envelope), it has more than \`SERVICE_BATCH_MAX_ENVELOPES\` (${MAX_BATCH_ENVELOPES}) envelopes, or more than the credential may send in a whole rate-limit window. Split the batch.`,
          ),
          '415': error(
            'Content-Type is not application/x-ndjson, or Content-Encoding is not gzip.',
          ),
          '422': {
            description: 'At least one line is invalid: nothing was stored.',
            headers: RATE_LIMIT_HEADERS,
            content: json(ref('BatchRejected')),
          },
          '429': { $ref: '#/components/responses/TooManyRequests' },
        },
      },
    },
  },
}
