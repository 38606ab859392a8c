import type { EngineRequest, EngineResponse } from '@tis/ingest'
import type { EmbeddedEngine } from './engine'

type Operation = (request: EngineRequest) => Promise<EngineResponse>

/** One HTTP route and the engine operation that answers it. */
export interface Route {
  readonly method: 'GET' | 'POST' | 'DELETE'
  /** Path pattern; `:name` segments become `params.name`. */
  readonly path: string
  readonly operation: (engine: EmbeddedEngine) => Operation
}

/** The routes both hosts serve: ingestion, plus the management API for projects and keys. */
export const ROUTES: readonly Route[] = [
  { method: 'POST', path: '/api/v1/ingest_events', operation: (e) => e.ingest.ingestEvent },
  { method: 'POST', path: '/api/v1/check_ins', operation: (e) => e.ingest.checkIn },
  { method: 'POST', path: '/api/v1/deployments', operation: (e) => e.ingest.recordDeployment },
  {
    method: 'POST',
    path: '/api/v1/mobile_ingest_tokens',
    operation: (e) => e.ingest.mintMobileToken,
  },
  { method: 'POST', path: '/api/v1/projects', operation: (e) => e.management.createProject },
  { method: 'GET', path: '/api/v1/projects', operation: (e) => e.management.listProjects },
  { method: 'GET', path: '/api/v1/projects/:id', operation: (e) => e.management.getProject },
  {
    method: 'POST',
    path: '/api/v1/projects/:id/api_keys',
    operation: (e) => e.management.createApiKey,
  },
  {
    method: 'GET',
    path: '/api/v1/projects/:id/api_keys',
    operation: (e) => e.management.listApiKeys,
  },
  {
    method: 'DELETE',
    path: '/api/v1/projects/:id/api_keys/:key_id',
    operation: (e) => e.management.revokeApiKey,
  },
  { method: 'GET', path: '/api/v1/projects/:id/events', operation: (e) => e.reads.listEvents },
]

/** Largest body accepted, as the reference server's `SERVICE_MAX_BODY_BYTES` default. */
export const MAX_BODY_BYTES = 1_048_576
