import type * as z from 'zod'

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
