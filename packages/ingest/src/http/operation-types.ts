import type { AccountApi } from '../account/api'
import type { AlertsApi } from '../alerts/config-api'
import type { EngineResponse } from '../http'
import type { IngestApi } from '../ingest/api'
import type { ManagementApi } from '../management/api'
import type { ReadApi } from '../reads/api'
import type { SourceSettingsApi } from '../source/settings-api'
import type { SourceMapsApi } from '../sourcemaps/upload-api'

/** The engine's APIs the HTTP operations call, by the field names of the engine. */
export interface HttpApis {
  readonly ingest: IngestApi
  readonly management: ManagementApi
  readonly reads: ReadApi
  readonly account: AccountApi
  readonly sourceSettings: SourceSettingsApi
  readonly alerts: AlertsApi
  readonly sourceMaps: SourceMapsApi
  /** `GET /health/ready`. */
  readiness(): Promise<EngineResponse>
}

/**
 * The APIs a host serves: any subset (an embedded engine may have ingestion and a few
 * management operations only). An operation whose function is missing is not routed.
 */
export type ServedApis = {
  readonly [K in keyof HttpApis]?: HttpApis[K] extends (...args: never[]) => unknown
    ? HttpApis[K]
    : Partial<HttpApis[K]>
}

/** An HTTP method of the table. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

/**
 * How the body reaches the operation: `none` (not read), `text` (always as text), `encoded`
 * (text, or bytes when it has a `Content-Encoding`, which the engine decodes), `bytes` (raw).
 */
export type BodyKind = 'none' | 'text' | 'encoded' | 'bytes'

/**
 * Which cap a body has as sent: `body` (`maxBodyBytes`), `batch` (`maxBatchBodyBytes`),
 * `chunk` (a source-map chunk plus 64 KiB), `otlp` (the OTLP endpoints' own 20 MiB).
 */
export type BodyCap = 'body' | 'batch' | 'chunk' | 'otlp'

/** One operation of the HTTP interface. */
export interface HttpOperation {
  readonly method: HttpMethod
  /** Path pattern; `:name` segments become `params.name`. */
  readonly path: string
  /** The `operationId` of its description in the OpenAPI document. */
  readonly id: string
  /** The API that answers it, or `health` for the liveness answer. */
  readonly api: keyof HttpApis | 'health'
  /** The function of that API (for `readiness`, the API itself). */
  readonly call: string
  /** A second argument of the call (Sentry's endpoint, OTLP's signal). */
  readonly arg?: string
  readonly body: BodyKind
  readonly cap: BodyCap
  /** Whether the operation gets the path and query parameters. @default false */
  readonly params?: boolean
  /** Path parameters renamed before the call: `{ project_id: 'project' }`. */
  readonly rename?: Readonly<Record<string, string>>
  /** Browsers may call it from other origins (see `cors.ts`). @default false */
  readonly cors?: boolean
}
