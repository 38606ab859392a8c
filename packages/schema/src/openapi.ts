import * as z from 'zod'
import { checkInSchema } from './check-in'
import { eventContextSchema } from './context'
import { deploymentSchema } from './deployment'
import { eventSchema } from './event'
import { mobileTokenRequestSchema } from './mobile-token'
import {
  acceptedCheckInSchema,
  acceptedDeploymentSchema,
  acceptedEventSchema,
  acceptedSpanSchema,
  analyticsReadinessSchema,
  errorBodySchema,
  mobileTokenResponseSchema,
  rateLimitErrorBodySchema,
  validationErrorBodySchema,
} from './responses'

/** The OpenAPI version of the machine-readable contract (section 9). */
export const OPENAPI_VERSION = '3.1.0'
/** The contract version (section 9). */
export const CONTRACT_VERSION = '2.8'

/** A JSON object in an OpenAPI document. */
export type OpenApiObject = Record<string, unknown>

/** The OpenAPI 3.1 document, loosely typed: its parts are plain JSON. */
export interface OpenApiDocument {
  openapi: typeof OPENAPI_VERSION
  info: OpenApiObject & { title: string; version: string }
  servers?: OpenApiObject[]
  tags: OpenApiObject[]
  paths: Record<string, OpenApiObject>
  components: {
    schemas: Record<string, OpenApiObject>
    securitySchemes: Record<string, OpenApiObject>
    headers: Record<string, OpenApiObject>
    responses: Record<string, OpenApiObject>
  }
}

/** Paths and components that another package (management API, read API, batch ingest) adds. */
export interface OpenApiExtension {
  /** Path items keyed by path, merged over the core paths. */
  readonly paths?: Record<string, OpenApiObject>
  /** Zod schemas (or plain JSON Schemas) keyed by component name. */
  readonly schemas?: Record<string, z.ZodType | OpenApiObject>
  /** Tags used by the added operations. */
  readonly tags?: readonly OpenApiObject[]
  /** Security schemes the added operations use (e.g. a user access token). */
  readonly securitySchemes?: Record<string, OpenApiObject>
}

/** Options of {@link createOpenApiDocument}. */
export interface OpenApiOptions {
  /** The `{base_url}` to list under `servers`; omitted when not given. */
  readonly serverUrl?: string
  /** Additions from other packages, applied in order. */
  readonly extensions?: readonly OpenApiExtension[]
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })

/** Converts a zod schema to a JSON Schema (2020-12) suitable for OpenAPI 3.1 components. */
export function toOpenApiSchema(schema: z.ZodType): OpenApiObject {
  const {
    $schema: _s,
    $id: _i,
    ...rest
  } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io: 'input',
    unrepresentable: 'any',
  }) as OpenApiObject
  return rest
}

const CORE_SCHEMAS: Record<string, z.ZodType> = {
  Event: eventSchema,
  EventContext: eventContextSchema,
  CheckIn: checkInSchema,
  Deployment: deploymentSchema,
  MobileIngestTokenRequest: mobileTokenRequestSchema,
  AcceptedEvent: acceptedEventSchema,
  AcceptedSpan: acceptedSpanSchema,
  AcceptedCheckIn: acceptedCheckInSchema,
  AcceptedDeployment: acceptedDeploymentSchema,
  MobileIngestTokenResponse: mobileTokenResponseSchema,
  Error: errorBodySchema,
  ValidationErrors: validationErrorBodySchema,
  RateLimitError: rateLimitErrorBodySchema,
  AnalyticsReadiness: analyticsReadinessSchema,
}

// Schemas register under `tis.`-prefixed ids in zod's global registry, so another library's
// `Event` or `Error` cannot collide with ours; references drop the prefix.
const componentUri = (id: string) => `#/components/schemas/${id.replace(/^tis\./, '')}`

/** Component schemas of every registered zod schema with an `id`, with cross references. */
function componentSchemas(extra: Record<string, z.ZodType | OpenApiObject>) {
  const all = z.toJSONSchema(z.globalRegistry, {
    target: 'draft-2020-12',
    io: 'input',
    unrepresentable: 'any',
    uri: componentUri,
  }).schemas as Record<string, OpenApiObject>
  const out: Record<string, OpenApiObject> = {}
  for (const [name, schema] of Object.entries({ ...CORE_SCHEMAS, ...extra })) {
    const id = schema instanceof z.ZodType ? z.globalRegistry.get(schema)?.id : undefined
    const json =
      schema instanceof z.ZodType ? (id ? all[id] : toOpenApiSchema(schema)) : { ...schema }
    const { $schema: _s, $id: _i, ...rest } = json ?? {}
    out[name] = rest
  }
  // Spans are labelled by `name` or `message`; every other event type needs `message`.
  out['Event'] = {
    ...out['Event'],
    if: { properties: { event_type: { const: 'span' } }, required: ['event_type'] },
    // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then/else keyword
    then: { anyOf: [{ required: ['name'] }, { required: ['message'] }] },
    else: { required: ['message'] },
  }
  for (const [name, key] of ENVELOPES) out[`${name}Envelope`] = envelopeSchema(name, key)
  return out
}

const ENVELOPES = [
  ['Event', 'event'],
  ['CheckIn', 'check_in'],
  ['Deployment', 'deployment'],
  ['MobileIngestTokenRequest', 'mobile_ingest_token'],
] as const

function envelopeSchema(name: string, key: string): OpenApiObject {
  const upper = key.toUpperCase()
  return {
    description: `The ${key} envelope: the lowercase key is canonical, ${upper} is also accepted; no other root key.`,
    type: 'object',
    properties: { [key]: ref(name), [upper]: ref(name) },
    oneOf: [{ required: [key] }, { required: [upper] }],
    additionalProperties: false,
  }
}

const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': { $ref: '#/components/headers/X-RateLimit-Limit' },
  'X-RateLimit-Remaining': { $ref: '#/components/headers/X-RateLimit-Remaining' },
  'X-RateLimit-Reset': { $ref: '#/components/headers/X-RateLimit-Reset' },
}

const json = (schema: OpenApiObject) => ({ 'application/json': { schema } })

const errorResponses = {
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

const intHeader = (description: string, minimum = 0) => ({
  description,
  schema: { type: 'integer', minimum },
})

/**
 * Builds the OpenAPI 3.1.0 document (contract version 2.8) of the ingestion interface from the
 * same zod schemas that validate requests, so the two cannot drift. Other packages add their
 * paths through `extensions`.
 */
export function createOpenApiDocument(options: OpenApiOptions = {}): OpenApiDocument {
  const extensions = options.extensions ?? []
  const extraSchemas = Object.assign({}, ...extensions.map((e) => e.schemas ?? {}))
  const doc: OpenApiDocument = {
    openapi: OPENAPI_VERSION,
    info: {
      title: 'tis telemetry ingestion API',
      version: CONTRACT_VERSION,
      description:
        'Project-scoped ingestion of errors, logs, metrics, transactions, spans and check-ins, deployment records and mobile ingest tokens. Field names may be sent in snake_case (canonical), camelCase or UPPER_CASE; documented aliases are listed per field.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    ...(options.serverUrl ? { servers: [{ url: options.serverUrl }] } : {}),
    tags: [
      { name: 'ingest', description: 'Telemetry ingestion' },
      { name: 'deployments', description: 'Deployment records' },
      { name: 'mobile', description: 'Short-lived mobile ingest tokens' },
      { name: 'health', description: 'Readiness' },
      ...extensions.flatMap((e) => e.tags ?? []),
    ],
    paths: {
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
    },
    components: {
      schemas: componentSchemas(extraSchemas),
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'Authorization: Bearer <API_KEY>',
        },
        apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
        ...Object.assign({}, ...extensions.map((e) => e.securitySchemes ?? {})),
      },
      headers: {
        'X-RateLimit-Limit': intHeader('The cap of the current fixed window.'),
        'X-RateLimit-Remaining': intHeader('Requests left in the current window (min 0).'),
        'X-RateLimit-Reset': intHeader('Unix timestamp (seconds) when the window resets.'),
        'Retry-After': intHeader('Seconds to wait before retrying (min 1).', 1),
      },
      responses: errorResponses,
    },
  }
  for (const extension of extensions) Object.assign(doc.paths, extension.paths ?? {})
  return doc
}
