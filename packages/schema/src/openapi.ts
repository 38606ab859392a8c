import { componentSchemas } from './openapi-components'
import { errorResponses, ingestPaths } from './openapi-ingest-paths'
import { otlpPaths } from './openapi-otlp-paths'
import { SENTRY_SECURITY_SCHEMES, sentryPaths } from './openapi-sentry-paths'
import {
  CONTRACT_VERSION,
  OPENAPI_VERSION,
  type OpenApiDocument,
  type OpenApiOptions,
} from './openapi-types'

export { toOpenApiSchema } from './openapi-components'
export {
  CONTRACT_VERSION,
  OPENAPI_VERSION,
  type OpenApiDocument,
  type OpenApiExtension,
  type OpenApiObject,
  type OpenApiOptions,
} from './openapi-types'

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
      { name: 'sentry', description: "Sentry's ingest protocol (docs/guides/sentry-sdks.md)" },
      { name: 'opentelemetry', description: 'OTLP/HTTP (docs/guides/opentelemetry.md)' },
      ...extensions.flatMap((e) => e.tags ?? []),
    ],
    paths: { ...ingestPaths(), ...sentryPaths(), ...otlpPaths() },
    components: {
      schemas: componentSchemas(extraSchemas),
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'Authorization: Bearer <API_KEY>',
        },
        apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
        ...SENTRY_SECURITY_SCHEMES,
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
