import { READS_OPENAPI } from '@tis/ingest'
import {
  ACCOUNT_OPENAPI,
  ALERTS_OPENAPI,
  BATCH_OPENAPI,
  createOpenApiDocument,
  MANAGEMENT_OPENAPI,
  type OpenApiDocument,
  SOURCE_OPENAPI,
  SOURCEMAPS_OPENAPI,
} from '@tis/schema'

/**
 * The server's whole OpenAPI document: the specification's endpoints from `@tis/schema` plus the
 * server's extensions (batch ingest, management, reads, source settings, account). Served at
 * `/api/v1/openapi.json` and rendered as the docs site's HTTP API page.
 */
export function serverOpenApiDocument(publicUrl?: string): OpenApiDocument {
  return createOpenApiDocument({
    // The account section comes last on the HTTP API page: its rotation example replaces the
    // access token that every example before it uses.
    extensions: [
      BATCH_OPENAPI,
      MANAGEMENT_OPENAPI,
      READS_OPENAPI,
      SOURCE_OPENAPI,
      ALERTS_OPENAPI,
      SOURCEMAPS_OPENAPI,
      ACCOUNT_OPENAPI,
    ],
    ...(publicUrl ? { serverUrl: publicUrl } : {}),
  })
}
