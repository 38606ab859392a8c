import { json } from './openapi-ingest-paths'
import type { OpenApiObject } from './openapi-types'

// Sentry's ingest endpoints (docs/guides/sentry-sdks.md): what Sentry's SDKs post to
// when given a project's DSN. Their bodies are Sentry's, not tis's: described, not schematised.

const error = (description: string) => ({
  description,
  content: json({ type: 'object', properties: { error: { type: 'string' } }, required: ['error'] }),
})

/** One Sentry endpoint's `post`. */
function sentryOperation(endpoint: 'envelope' | 'store', slash: boolean): OpenApiObject {
  const envelope = endpoint === 'envelope'
  return {
    post: {
      operationId: `sentry${envelope ? 'Envelope' : 'Store'}${slash ? '' : 'NoSlash'}`,
      tags: ['sentry'],
      summary: envelope
        ? "Ingest a Sentry envelope (Sentry's SDKs)"
        : 'Ingest one Sentry event (older Sentry SDKs)',
      description: `${
        envelope
          ? 'A Sentry envelope: `event`, `transaction`, `span`, `check_in` and `log` items are stored (all or nothing, durable before the 200); every other item type is accepted and counted.'
          : 'One Sentry event as JSON (an error, a message or a transaction).'
      } The key of the project's DSN (or any of its API keys) in \`X-Sentry-Auth: Sentry sentry_key=<key>\`, the \`sentry_key\` query parameter, \`Authorization: Bearer\`${envelope ? ", or the envelope header's `dsn`" : ''}. Bodies may be gzip or deflate. ${slash ? '' : 'The same without the trailing slash.'}`,
      security: [{ bearerAuth: [] }, { sentryAuth: [] }, { sentryKey: [] }],
      parameters: [
        {
          name: 'project',
          in: 'path',
          required: true,
          description: "The project's number (the DSN's project part).",
          schema: { type: 'string', pattern: '^\\d{1,18}$' },
        },
      ],
      requestBody: {
        required: true,
        content: envelope
          ? {
              'application/x-sentry-envelope': {
                schema: { type: 'string', format: 'binary' },
                example: '{}\n{"type":"event"}\n{"message":"hello from curl","level":"info"}\n',
              },
            }
          : {
              'application/json': {
                schema: {
                  type: 'object',
                  description: "A Sentry event (Sentry's event payload, as its SDKs send it).",
                  properties: {
                    message: { type: 'string', example: 'hello from curl' },
                    level: { type: 'string', example: 'info' },
                  },
                  required: ['message', 'level'],
                },
              },
            },
      },
      responses: {
        '200': {
          description:
            "Every record is durable; `id` is the envelope's or event's id (null when it stored none).",
          content: json({
            type: 'object',
            properties: { id: { type: ['string', 'null'] } },
            required: ['id'],
          }),
        },
        '400': error('A malformed envelope or body, or a record tis refuses; nothing is stored.'),
        '401': error('No key, or an unknown, revoked or archived one.'),
        '403': error('The key belongs to another project.'),
        '404': error('The project part is not a number.'),
        '413': error('The body is over the cap.'),
        '415': error('An unknown Content-Encoding.'),
        '429': {
          description:
            "Over the project's rate limit: `Retry-After`, and `X-Sentry-Rate-Limits: <seconds>::organization`, which Sentry's SDKs obey.",
          headers: {
            'Retry-After': { $ref: '#/components/headers/Retry-After' },
            'X-Sentry-Rate-Limits': {
              description: "Sentry's rate-limit header: every category, until `Retry-After`.",
              schema: { type: 'string' },
            },
          },
          content: json({ $ref: '#/components/schemas/RateLimitError' }),
        },
      },
    },
  }
}

/** The four Sentry paths, with and without the trailing slash Sentry's SDKs send. */
export function sentryPaths(): Record<string, OpenApiObject> {
  return {
    '/api/{project}/envelope/': sentryOperation('envelope', true),
    '/api/{project}/envelope': sentryOperation('envelope', false),
    '/api/{project}/store/': sentryOperation('store', true),
    '/api/{project}/store': sentryOperation('store', false),
  }
}

/** The security schemes of {@link sentryPaths}. */
export const SENTRY_SECURITY_SCHEMES = {
  sentryAuth: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Sentry-Auth',
    description: 'Sentry sentry_key=<the DSN key>, sentry_version=7, …',
  },
  sentryKey: { type: 'apiKey', in: 'query', name: 'sentry_key' },
}
