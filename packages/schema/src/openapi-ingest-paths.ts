import { ref } from './openapi-components'
import type { OpenApiObject } from './openapi-types'

// The ingest endpoints' paths (section 9) and the responses and headers they share.

/** The rate-limit headers of every ingest answer, as references. */
export const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': { $ref: '#/components/headers/X-RateLimit-Limit' },
  'X-RateLimit-Remaining': { $ref: '#/components/headers/X-RateLimit-Remaining' },
  'X-RateLimit-Reset': { $ref: '#/components/headers/X-RateLimit-Reset' },
}

/** A JSON body of `schema`. */
export const json = (schema: OpenApiObject) => ({ 'application/json': { schema } })

/** The shared error responses of the ingest endpoints (`components.responses`). */
export const errorResponses = {
  BadRequest: {
    description:
      'The envelope is missing or unusable. The message begins with `param is missing or the value is empty: <key>`.',
    content: json(ref('Error')),
  },
  Unauthorized: {
    description:
      'The credential is missing, invalid, revoked, inactive, expired, or of an archived project.',
    content: json({ ...ref('Error'), example: { error: 'Unauthorized' } }),
  },
  Forbidden: {
    description: 'The credential is valid but may not use this endpoint or event type.',
    content: json({ ...ref('Error'), example: { error: 'Forbidden' } }),
  },
  UnprocessableEntity: {
    description: 'The envelope is present but failed validation; every problem is listed.',
    content: json({ ...ref('ValidationErrors'), example: { errors: ["message can't be blank"] } }),
  },
  TooManyRequests: {
    description: 'The per-token request cap or the per-IP authentication-failure cap was exceeded.',
    headers: {
      'Retry-After': { $ref: '#/components/headers/Retry-After' },
      ...RATE_LIMIT_HEADERS,
    },
    content: json(ref('RateLimitError')),
  },
}

/** A `POST` ingest operation: its envelope, 201 (and 200 for a repeat) answer and errors. */
function postOperation(o: {
  id: string
  tag: string
  summary: string
  envelope: string
  created: OpenApiObject
  description?: string
  /** Idempotent by `event_id`: a repeat answers 200 with the stored record. */
  idempotent?: boolean
}): OpenApiObject {
  return {
    post: {
      operationId: o.id,
      tags: [o.tag],
      summary: o.summary,
      ...(o.description ? { description: o.description } : {}),
      security: [{ bearerAuth: [] }, { apiKeyHeader: [] }],
      requestBody: { required: true, content: json(ref(o.envelope)) },
      responses: {
        ...(o.idempotent
          ? {
              '200': {
                description:
                  'A repeat: a record with this `event_id` (spans: `trace_id` and `span_id`) is already stored in the project. The stored record, with `duplicate: true`; nothing was written.',
                headers: RATE_LIMIT_HEADERS,
                content: json(o.created),
              },
            }
          : {}),
        '201': {
          description: 'Accepted and durably stored.',
          headers: RATE_LIMIT_HEADERS,
          content: json(o.created),
        },
        '400': { $ref: '#/components/responses/BadRequest' },
        '401': { $ref: '#/components/responses/Unauthorized' },
        '403': { $ref: '#/components/responses/Forbidden' },
        '422': { $ref: '#/components/responses/UnprocessableEntity' },
        '429': { $ref: '#/components/responses/TooManyRequests' },
      },
    },
  }
}

/** The ingest paths and `/health/analytics_store`: a new object on every call (extensions merge into it). */
export function ingestPaths(): Record<string, OpenApiObject> {
  return {
    '/api/v1/ingest_events': postOperation({
      id: 'ingestEvent',
      tag: 'ingest',
      summary: 'Ingest one event',
      envelope: 'EventEnvelope',
      created: { oneOf: [ref('AcceptedEvent'), ref('AcceptedSpan')] },
      idempotent: true,
      description:
        'Accepts an error, log, metric, transaction, span or check-in. Spans answer with `type: "span"`. Aliases: `repo`, `github_repository` → `repository`; `monitor_slug` → `check_in_slug`; `span_kind` → `kind`; `uuid` → `event_id`. A client `event_id` makes retries safe: a repeat answers 200 with `duplicate: true`.',
    }),
    '/api/v1/check_ins': postOperation({
      id: 'createCheckIn',
      tag: 'ingest',
      summary: 'Record a check-in',
      envelope: 'CheckInEnvelope',
      created: ref('AcceptedCheckIn'),
      idempotent: true,
    }),
    '/api/v1/deployments': postOperation({
      id: 'createDeployment',
      tag: 'deployments',
      summary: 'Record a deployment',
      envelope: 'DeploymentEnvelope',
      created: ref('AcceptedDeployment'),
    }),
    '/api/v1/sessions': postOperation({
      id: 'createSessions',
      tag: 'ingest',
      summary: 'Record release-health sessions',
      envelope: 'SessionEnvelope',
      created: ref('AcceptedSession'),
      description:
        "A session update or an aggregate of sessions, as Sentry's SDKs send them in envelopes (docs/release-health.md). Counted against the credential's `ingest_events` cap. A session counts once, on its `init: true` update, whatever repeats of its updates arrive; a status other than `ok` is final.",
    }),
    '/api/v1/mobile_ingest_tokens': postOperation({
      id: 'createMobileIngestToken',
      tag: 'mobile',
      summary: 'Mint a mobile ingest token',
      envelope: 'MobileIngestTokenRequestEnvelope',
      created: ref('MobileIngestTokenResponse'),
      description:
        'Call with a server project API key from a trusted backend, never from the mobile app.',
    }),
    '/health/analytics_store': {
      get: {
        operationId: 'analyticsStoreHealth',
        tags: ['health'],
        summary: 'Readiness of the optional analytics store',
        security: [],
        responses: {
          '200': {
            description: 'Disabled, or enabled and ready.',
            content: json(ref('AnalyticsReadiness')),
          },
          '503': {
            description: 'Enabled but unreachable or missing tables or views.',
            content: json(ref('AnalyticsReadiness')),
          },
        },
      },
    },
  }
}
