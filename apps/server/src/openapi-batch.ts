import { MAX_BATCH_ENVELOPES } from '@tis/ingest'
import type { OpenApiExtension, OpenApiObject } from '@tis/schema'

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })
const json = (schema: OpenApiObject) => ({ 'application/json': { schema } })
const error = (description: string) => ({ description, content: json(ref('Error')) })

const lineResult: OpenApiObject = {
  oneOf: [
    {
      type: 'object',
      description: 'Stored (201) or already stored (200, `duplicate: true`).',
      required: ['index', 'status', 'id', 'legacy_id'],
      properties: {
        index: {
          type: 'integer',
          minimum: 0,
          description: 'Line number, from 0 (blank lines skipped).',
        },
        status: { enum: [201, 200] },
        id: { type: 'string', format: 'uuid' },
        legacy_id: { type: ['integer', 'null'] },
        type: { const: 'span' },
        duplicate: { const: true },
      },
    },
    {
      type: 'object',
      description:
        'The line is not JSON or has no usable envelope (400), or the token may not send this event type (403).',
      required: ['index', 'status', 'error'],
      properties: {
        index: { type: 'integer', minimum: 0 },
        status: { enum: [400, 403] },
        error: { type: 'string' },
      },
    },
    {
      type: 'object',
      description:
        'The envelope failed validation, has no `event_id`, or its `event_id` belongs to another project.',
      required: ['index', 'status', 'errors'],
      properties: {
        index: { type: 'integer', minimum: 0 },
        status: { const: 422 },
        errors: { type: 'array', items: { type: 'string' } },
      },
    },
  ],
}

/**
 * `POST /api/v1/ingest_events/batch` (beyond the interface specification): several event
 * envelopes in one request, each answered on its own.
 */
export const BATCH_OPENAPI: OpenApiExtension = {
  schemas: {
    BatchLineResult: lineResult,
    BatchResult: {
      type: 'object',
      required: ['accepted', 'duplicates', 'rejected', 'rate_limited', 'results'],
      properties: {
        accepted: { type: 'integer', minimum: 0 },
        duplicates: { type: 'integer', minimum: 0 },
        rejected: { type: 'integer', minimum: 0, description: 'Lines answered 400, 403 or 422.' },
        rate_limited: { type: 'integer', minimum: 0, description: 'Lines answered 429.' },
        results: { type: 'array', items: ref('BatchLineResult') },
      },
    },
  },
  paths: {
    '/api/v1/ingest_events/batch': {
      post: {
        operationId: 'ingestEventBatch',
        tags: ['ingest'],
        summary: 'Ingest several events at once (NDJSON)',
        description: `Up to ${MAX_BATCH_ENVELOPES} envelopes, one \`{"event":…}\` per line, each with an \`event_id\` (so retries are safe); optionally \`Content-Encoding: gzip\`. The body is capped at \`SERVICE_MAX_BODY_BYTES\` before and after decompression. Every line is answered on its own, in order; the new records of all valid lines are written in one transaction — all or none (a failure answers 503 or 500 for the whole request and stores nothing). The rate limit of \`POST /api/v1/ingest_events\` counts each envelope: the lines that still fit in the window are processed, the rest answered 429 line by line (with \`Retry-After\` on the response); when none fits, the whole request is a 429.`,
        security: [{ bearerAuth: [] }, { apiKeyHeader: [] }],
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
          '200': { description: 'One result per line.', content: json(ref('BatchResult')) },
          '400': error('The gzip body cannot be decompressed.'),
          '401': { $ref: '#/components/responses/Unauthorized' },
          '413': error('The body is larger than the cap (before or after decompression).'),
          '415': error(
            'Content-Type is not application/x-ndjson, or Content-Encoding is not gzip.',
          ),
          '422': {
            description: `No envelope, or more than ${MAX_BATCH_ENVELOPES}.`,
            content: json(ref('ValidationErrors')),
          },
          '429': { $ref: '#/components/responses/TooManyRequests' },
        },
      },
    },
  },
}
