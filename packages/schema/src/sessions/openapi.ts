import type { OpenApiObject } from '../openapi-types'
import { SESSION_LIMITS, SESSION_STATUSES } from './session'

// The OpenAPI components of `POST /api/v1/sessions` (docs/release-health.md): Sentry's
// `session` and `sessions` item payloads, wrapped in their root key.

const text = { type: 'string', minLength: 1, maxLength: SESSION_LIMITS.maxTextLength }
const instant = {
  oneOf: [
    { type: 'string', format: 'date-time' },
    { type: 'number', description: 'Seconds since the epoch.' },
  ],
}
const count = { type: 'integer', minimum: 0, maximum: SESSION_LIMITS.maxCount, default: 0 }
const attrs = {
  type: 'object',
  required: ['release'],
  properties: {
    release: {
      ...text,
      description:
        'Required: sessions without a release are not counted. No slashes or line breaks; not `.`, `..` or `latest`.',
    },
    environment: { ...text, default: 'production' },
  },
}

/** The component schemas of the sessions endpoint, by name. */
export const SESSION_OPENAPI_SCHEMAS: Record<string, OpenApiObject> = {
  SessionUpdate: {
    type: 'object',
    description:
      "One update of one session, carrying its whole state (Sentry's `session` item). The session counts on its `init: true` update; a status other than `ok` is final.",
    required: ['sid', 'started', 'attrs'],
    properties: {
      sid: { type: 'string', minLength: 1, maxLength: 128, description: "The session's id." },
      did: { ...text, description: 'The distinct user, for crash-free users.' },
      seq: { type: 'integer', minimum: 0, description: "The SDK's logical clock of the update." },
      init: { type: 'boolean', default: false },
      started: {
        ...instant,
        description: `When the session started: not more than ${SESSION_LIMITS.maxFutureSeconds} seconds after the receive time.`,
      },
      timestamp: instant,
      duration: { type: 'number', minimum: 0, description: 'Seconds.' },
      status: { type: 'string', enum: [...SESSION_STATUSES], default: 'ok' },
      errors: count,
      attrs,
    },
  },
  SessionAggregate: {
    type: 'object',
    description:
      "Sessions counted by the SDK, per minute they started (Sentry's `sessions` item, sent by servers in request mode).",
    required: ['aggregates', 'attrs'],
    properties: {
      aggregates: {
        type: 'array',
        minItems: 1,
        maxItems: SESSION_LIMITS.maxAggregates,
        items: {
          type: 'object',
          required: ['started'],
          properties: {
            started: instant,
            did: text,
            exited: { ...count, description: 'Ended healthy.' },
            errored: { ...count, description: 'Had handled errors.' },
            abnormal: { ...count, description: 'Ended abnormally (killed, hung).' },
            crashed: { ...count, description: 'Ended by an unhandled error.' },
          },
        },
      },
      attrs,
    },
  },
  SessionEnvelope: {
    type: 'object',
    description: 'One of `session` (an update) or `sessions` (an aggregate); upper case accepted.',
    oneOf: [
      {
        type: 'object',
        required: ['session'],
        properties: { session: { $ref: '#/components/schemas/SessionUpdate' } },
        additionalProperties: false,
      },
      {
        type: 'object',
        required: ['sessions'],
        properties: { sessions: { $ref: '#/components/schemas/SessionAggregate' } },
        additionalProperties: false,
      },
    ],
  },
  AcceptedSession: {
    type: 'object',
    required: ['id', 'status'],
    properties: {
      id: { type: 'string', format: 'uuid', description: "The record's id in the ingest log." },
      status: { const: 'accepted' },
    },
  },
}
