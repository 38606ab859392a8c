import type { OpenApiObject } from './openapi-types'

// OTLP/HTTP's endpoints (docs/guides/opentelemetry.md): what OpenTelemetry's OTLP/HTTP
// exporters post to when given the server's base URL. Their bodies are OTLP's (protobuf or
// OTLP/JSON), not tis's: described, with a JSON example, not schematised.

const STATUS = {
  type: 'object',
  description:
    'A `google.rpc.Status`: the gRPC code (3 invalid argument, 7 permission denied, 8 resource exhausted, 14 unavailable, 16 unauthenticated) and why. Protobuf when the request was, else JSON.',
  properties: { code: { type: 'integer' }, message: { type: 'string' } },
  required: ['code', 'message'],
}

const refusal = (description: string, headers?: Record<string, unknown>) => ({
  description,
  ...(headers ? { headers } : {}),
  content: {
    'application/json': { schema: STATUS },
    'application/x-protobuf': { schema: { type: 'string', format: 'binary' } },
  },
})

const RETRY_AFTER = { 'Retry-After': { $ref: '#/components/headers/Retry-After' } }

const NOW_NANOS = '1767225600000000000'

const EXAMPLES = {
  traces: {
    resourceSpans: [
      {
        resource: {
          attributes: [{ key: 'service.name', value: { stringValue: 'checkout' } }],
        },
        scopeSpans: [
          {
            scope: { name: 'curl' },
            spans: [
              {
                traceId: '5b8efff798038103d269b633813fc60c',
                spanId: 'eee19b7ec3c1b174',
                name: 'GET /orders',
                kind: 2,
                startTimeUnixNano: NOW_NANOS,
                endTimeUnixNano: '1767225600250000000',
                attributes: [{ key: 'http.response.status_code', value: { intValue: '200' } }],
              },
            ],
          },
        ],
      },
    ],
  },
  logs: {
    resourceLogs: [
      {
        resource: {
          attributes: [{ key: 'service.name', value: { stringValue: 'checkout' } }],
        },
        scopeLogs: [
          {
            scope: { name: 'curl' },
            logRecords: [
              {
                timeUnixNano: NOW_NANOS,
                severityNumber: 9,
                severityText: 'INFO',
                body: { stringValue: 'hello from curl' },
              },
            ],
          },
        ],
      },
    ],
  },
}

/** One OTLP endpoint's `post`. */
function otlpOperation(signal: 'traces' | 'logs'): OpenApiObject {
  const traces = signal === 'traces'
  const rejected = traces ? 'rejectedSpans' : 'rejectedLogRecords'
  return {
    post: {
      operationId: traces ? 'otlpTraces' : 'otlpLogs',
      tags: ['opentelemetry'],
      summary: traces
        ? 'Ingest OTLP traces (OpenTelemetry exporters)'
        : 'Ingest OTLP logs (OpenTelemetry exporters)',
      description: `${
        traces
          ? 'An `ExportTraceServiceRequest`: every span is stored as a span, a root SERVER span also as a transaction, an `exception` span event as an error.'
          : 'An `ExportLogsServiceRequest`: every log record is stored as a log, with its trace and span ids.'
      } Protobuf (\`application/x-protobuf\`) or OTLP/JSON (\`application/json\`), optionally gzip or deflate; the answer uses the request's encoding. A project API key in \`Authorization: Bearer\` or \`X-Api-Key\`; a request counts once against the project's rate limit. Durable before the 200.`,
      security: [{ bearerAuth: [] }, { apiKeyHeader: [] }],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              description: `An OTLP/JSON \`Export${traces ? 'Trace' : 'Logs'}ServiceRequest\`.`,
            },
            example: EXAMPLES[signal],
          },
          'application/x-protobuf': { schema: { type: 'string', format: 'binary' } },
        },
      },
      responses: {
        '200': {
          description: `Every accepted record is durable. Empty when all were; else \`partialSuccess\` with the count of rejected records (each ${traces ? 'span, with what it gives,' : 'log record'} is taken or rejected whole) and why.`,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: {
                  partialSuccess: {
                    type: 'object',
                    properties: {
                      [rejected]: { type: 'integer' },
                      errorMessage: { type: 'string' },
                    },
                  },
                },
              },
            },
            'application/x-protobuf': { schema: { type: 'string', format: 'binary' } },
          },
        },
        '400': refusal('A malformed or truncated body; nothing is stored.'),
        '401': refusal('No API key, or an unknown, revoked or archived one.'),
        '403': refusal('The credential may not ingest.'),
        '413': refusal('The body is over the cap (20 MiB once decompressed).'),
        '415': refusal('Another Content-Type or Content-Encoding.'),
        '429': refusal("Over the project's rate limit; exporters retry after `Retry-After`.", {
          ...RETRY_AFTER,
        }),
        '503': refusal('The database is unavailable; exporters retry after `Retry-After`.', {
          ...RETRY_AFTER,
        }),
      },
    },
  }
}

/** `/v1/traces` and `/v1/logs`. */
export function otlpPaths(): Record<string, OpenApiObject> {
  return { '/v1/traces': otlpOperation('traces'), '/v1/logs': otlpOperation('logs') }
}
