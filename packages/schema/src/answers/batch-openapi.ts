import type { OpenApiExtension, OpenApiObject } from '../openapi'
import {
  batchAcceptedSchema,
  batchLineResultSchema,
  batchRejectedSchema,
  MAX_BATCH_ENVELOPES,
} from './batch-answers'
import { errorResponse } from './error-responses'
import { type ApiOperation, operationPaths } from './operations'

const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': { $ref: '#/components/headers/X-RateLimit-Limit' },
  'X-RateLimit-Remaining': { $ref: '#/components/headers/X-RateLimit-Remaining' },
  'X-RateLimit-Reset': { $ref: '#/components/headers/X-RateLimit-Reset' },
}
const PATH = '/api/v1/ingest_events/batch'

/** `POST /api/v1/ingest_events/batch`: its answers; the NDJSON request is added below. */
export const BATCH_OPERATION: ApiOperation = {
  method: 'post',
  path: PATH,
  id: 'ingestEventBatch',
  tag: 'ingest',
  summary: 'Ingest several events at once (NDJSON), all or nothing',
  description: `Up to \`SERVICE_BATCH_MAX_ENVELOPES\` (${MAX_BATCH_ENVELOPES}) envelopes, one \`{"event":…}\` per line, each with an \`event_id\` (alias \`uuid\`) so that retries are safe; optionally \`Content-Encoding: gzip\`. Caps: \`SERVICE_BATCH_MAX_BODY_BYTES\` as sent (2 MiB), \`SERVICE_BATCH_MAX_DECOMPRESSED_BYTES\` once decompressed (8 MiB), \`SERVICE_BATCH_MAX_ENVELOPE_BYTES\` per envelope (1 MiB). **All or nothing**, as Logister's own batch endpoint: 202 when every line is stored or already was; 422 when any line is invalid (not JSON, no envelope, validation, no \`event_id\`, an event type a mobile token may not send, another project's \`event_id\`), and then nothing is stored. The rate limit of \`POST /api/v1/ingest_events\` counts one unit per envelope: a batch that does not fit in what is left of the window is a whole-request 429 and takes none of it. A store failure answers 503 or 500 and stores nothing.`,
  security: [{ bearerAuth: [] }, { apiKeyHeader: [] }],
  responses: {
    202: {
      description: 'Every line is stored, or already was (duplicates).',
      headers: RATE_LIMIT_HEADERS,
      body: batchAcceptedSchema,
    },
    400: errorResponse(400, 'The gzip body cannot be decompressed, or the batch has no line.'),
    401: 'Unauthorized',
    413: errorResponse(
      413,
      `The body is over a cap (as sent, decompressed or one envelope), it has more than \`SERVICE_BATCH_MAX_ENVELOPES\` (${MAX_BATCH_ENVELOPES}) envelopes, or more than the credential may send in a whole rate-limit window. Split the batch.`,
    ),
    415: errorResponse(
      415,
      'Content-Type is not application/x-ndjson, or Content-Encoding is not gzip.',
    ),
    422: {
      description: 'At least one line is invalid: nothing was stored.',
      headers: RATE_LIMIT_HEADERS,
      body: batchRejectedSchema,
    },
    429: 'TooManyRequests',
  },
}

// The operation table describes JSON bodies and path and query parameters; this one endpoint
// takes NDJSON and a request header, added to the generated operation here.
const NDJSON_REQUEST: OpenApiObject = {
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
}

function batchPaths(): Record<string, OpenApiObject> {
  const { post: generated } = operationPaths([BATCH_OPERATION])[PATH] as { post: OpenApiObject }
  const { responses, ...post } = generated
  return { [PATH]: { post: { ...post, ...NDJSON_REQUEST, responses } } }
}

/**
 * `POST /api/v1/ingest_events/batch` (beyond the interface specification): several event
 * envelopes in one request, all or nothing, with Logister's answers.
 */
export const BATCH_OPENAPI: OpenApiExtension = {
  schemas: {
    BatchLineResult: batchLineResultSchema,
    BatchAccepted: batchAcceptedSchema,
    BatchRejected: batchRejectedSchema,
  },
  paths: batchPaths(),
}
