import {
  ACCOUNT_OPENAPI,
  ALERTS_OPENAPI,
  BATCH_OPENAPI,
  createOpenApiDocument,
  MANAGEMENT_OPENAPI,
  type OpenApiDocument,
  type OpenApiObject,
  SOURCE_OPENAPI,
  SOURCEMAPS_OPENAPI,
} from '@tis/schema'
import { READS_OPENAPI } from '../reads/openapi'
import { HTTP_OPERATIONS, type HttpOperation } from './operations'

/** An operation a host serves beside the engine's (e.g. its analytics health), as documented. */
export interface HostOperation {
  readonly method: HttpOperation['method']
  /** OpenAPI path, `{name}` parameters. */
  readonly path: string
}

/** Options of {@link engineOpenApiDocument}. */
export interface EngineOpenApiOptions {
  /** The `{base_url}` listed under `servers`. @default none */
  readonly publicUrl?: string
  /** The host's own documented operations, kept in the document. @default [] */
  readonly hostOperations?: readonly HostOperation[]
}

/** A table path (`:name`) as an OpenAPI path (`{name}`). */
export function openApiPath(path: string): string {
  return path.replace(/:(\w+)/g, '{$1}')
}

/**
 * Every operation's description, components and tags as `@tis/schema` (and the read API)
 * describe them. The account section comes last on the HTTP API page: its rotation example
 * replaces the access token that every example before it uses.
 */
export function describedOperations(publicUrl?: string): OpenApiDocument {
  return createOpenApiDocument({
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

/**
 * The OpenAPI 3.1 document of the HTTP interface: its paths are the operation table's (method
 * and path of every operation, plus the host's own), each with the description, parameters and
 * answers `@tis/schema` gives its `operationId`, in the order of those descriptions.
 */
export function engineOpenApiDocument(options: EngineOpenApiOptions = {}): OpenApiDocument {
  const described = describedOperations(options.publicUrl)
  const served = new Set([
    ...HTTP_OPERATIONS.map((op) => `${op.method} ${openApiPath(op.path)}`),
    ...(options.hostOperations ?? []).map((op) => `${op.method} ${op.path}`),
  ])
  const paths: Record<string, OpenApiObject> = {}
  for (const [path, item] of Object.entries(described.paths)) {
    const kept = Object.entries(item).filter(([method]) =>
      served.has(`${method.toUpperCase()} ${path}`),
    )
    if (kept.length > 0) paths[path] = Object.fromEntries(kept)
  }
  return { ...described, paths }
}
