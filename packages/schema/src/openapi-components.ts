import * as z from 'zod'
import { checkInSchema } from './check-in'
import { eventContextSchema } from './context'
import { deploymentSchema } from './deployment'
import { eventSchema } from './event'
import { mobileTokenRequestSchema } from './mobile-token'
import type { OpenApiObject } from './openapi-types'
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
import { SESSION_OPENAPI_SCHEMAS } from './sessions/openapi'

/** A reference to the component schema `name`. */
export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })

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
export function componentSchemas(extra: Record<string, z.ZodType | OpenApiObject>) {
  const all = z.toJSONSchema(z.globalRegistry, {
    target: 'draft-2020-12',
    io: 'input',
    unrepresentable: 'any',
    uri: componentUri,
  }).schemas as Record<string, OpenApiObject>
  const out: Record<string, OpenApiObject> = {}
  for (const [name, schema] of Object.entries({
    ...CORE_SCHEMAS,
    ...SESSION_OPENAPI_SCHEMAS,
    ...extra,
  })) {
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
