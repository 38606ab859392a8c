import { engineOpenApiDocument, type HostOperation } from '@tis/ingest'
import type { OpenApiDocument } from '@tis/schema'

/** The server's own documented operations beside the engine's. */
export const SERVER_OPERATIONS: readonly HostOperation[] = [
  { method: 'GET', path: '/health/analytics_store' },
]

/**
 * The server's whole OpenAPI document: the engine's operations (from its operation table) plus
 * the server's own analytics health. Served at `/api/v1/openapi.json` and rendered as the docs
 * site's HTTP API page.
 */
export function serverOpenApiDocument(publicUrl?: string): OpenApiDocument {
  return engineOpenApiDocument({
    ...(publicUrl ? { publicUrl } : {}),
    hostOperations: SERVER_OPERATIONS,
  })
}
