import type { HttpOperation } from './operation-types'
import { ingestOperations } from './operations-ingest'
import { managementOperations } from './operations-management'
import { sourceMapOperations } from './operations-sourcemaps'

export type {
  BodyCap,
  BodyKind,
  HttpApis,
  HttpMethod,
  HttpOperation,
  ServedApis,
} from './operation-types'

/**
 * The one table of the engine's HTTP operations, in the order the host matches them: health,
 * ingestion (native, Sentry's, OTLP's), management, account, reads, source settings, alerts,
 * source maps. `handle` and the OpenAPI document's paths both come from it.
 */
export const HTTP_OPERATIONS: readonly HttpOperation[] = [
  ...ingestOperations(),
  ...managementOperations(),
  ...sourceMapOperations(),
]
