import {
  ERROR_BODIES,
  missingEnvelopeMessage,
  type ParseResult,
  parseCheckInEnvelope,
  parseDateTime,
  parseDeploymentEnvelope,
  parseEventEnvelope,
} from '@tis/schema'
import { type BatchWriterOptions, createBatchWriter } from './batch-writer'
import { type CredentialCache, createCredentialCache } from './credentials'
import { issueGrouping } from './grouping'
import { type EngineRequest, type EngineResponse, json } from './http'
import { uuidv7 } from './ids'
import { createManagementApi, type ManagementApi } from './management'
import type { CredentialRecord, IngestStore, WriteOp } from './ports'
import {
  createMemoryRateLimiter,
  type RateLimiter,
  type RateLimitState,
  rateLimitHeaders,
  tooManyRequests,
} from './rate-limit'
import {
  deploymentFromApi,
  deploymentFromEvent,
  monitorFromCheckIn,
  monitorFromEvent,
} from './records'

/** Where problems the engine swallows are reported. */
export interface EngineLogger {
  warn(message: string, fields?: Record<string, unknown>): void
  error(message: string, fields?: Record<string, unknown>): void
}

/** Request caps of section 8. */
export interface RateLimitSettings {
  /** @default 1200 */
  readonly requests: number
  /** @default 60 */
  readonly periodSeconds: number
  /** Authentication failures per source IP per minute. @default 120 */
  readonly authFailures: number
}

/** Options of {@link createIngestEngine}. */
export interface IngestEngineOptions {
  /** The storage adapter. The engine does not close it. */
  readonly store: IngestStore
  /**
   * The service's own environment (`SERVICE_ENV`), the default of check-ins.
   * @default 'production'
   */
  readonly serviceEnvironment?: string
  /**
   * Application administrators (`SERVICE_ADMIN_EMAILS`). When empty, `admin@localhost` — the
   * first-run user — is the administrator.
   * @default []
   */
  readonly adminEmails?: readonly string[]
  /** Request caps; each field defaults as in {@link RateLimitSettings}. */
  readonly rateLimits?: Partial<RateLimitSettings>
  /**
   * Counts requests per window.
   * @default createMemoryRateLimiter()
   */
  readonly limiter?: RateLimiter
  /** Group-commit settings. */
  readonly batch?: BatchWriterOptions
  /**
   * How long a credential lookup is trusted, in ms: the bound on how late a revocation made on
   * another instance takes effect.
   * @default 1000
   */
  readonly credentialCacheMs?: number
  /** @default () => new Date() */
  readonly now?: () => Date
  readonly logger?: EngineLogger
}

/** The ingestion engine: one function per operation, each answering `{ status, headers, body }`. */
export interface IngestEngine {
  /** `POST /api/v1/ingest_events` */
  ingestEvent(request: EngineRequest): Promise<EngineResponse>
  /** `POST /api/v1/check_ins` */
  checkIn(request: EngineRequest): Promise<EngineResponse>
  /** `POST /api/v1/deployments` */
  recordDeployment(request: EngineRequest): Promise<EngineResponse>
  /** The management API (users, projects, keys, members). */
  readonly management: ManagementApi
  /** Resolves once every accepted record is committed. */
  flush(): Promise<void>
  /** Flushes and stops accepting records; the store stays open. */
  close(): Promise<void>
}

/** The per-token counters: separate for each endpoint (section 8). */
type Endpoint = 'ingest_events' | 'check_ins' | 'deployments'

const DEFAULT_LIMITS: RateLimitSettings = { requests: 1200, periodSeconds: 60, authFailures: 120 }

/** Creates the ingestion engine over a store. */
export function createIngestEngine(options: IngestEngineOptions): IngestEngine {
  const now = options.now ?? (() => new Date())
  const serviceEnvironment = options.serviceEnvironment ?? 'production'
  const limits = { ...DEFAULT_LIMITS, ...options.rateLimits }
  const limiter = options.limiter ?? createMemoryRateLimiter()
  const credentials: CredentialCache = createCredentialCache(options.store, {
    ttlMs: options.credentialCacheMs ?? 1000,
  })
  const writer = createBatchWriter(options.store, {
    ...options.batch,
    onBatchError:
      options.batch?.onBatchError ??
      ((error, size) =>
        options.logger?.warn('batch write failed; retrying its records one by one', {
          size,
          error: String(error),
        })),
  })
  const management = createManagementApi({
    store: options.store,
    adminEmails: options.adminEmails ?? [],
    now,
    onCredentialsChanged: () => credentials.clear(),
  })

  /** Authentication, the endpoint rule and the request cap; a response when refused. */
  async function admit(
    endpoint: Endpoint,
    request: EngineRequest,
    at: Date,
  ): Promise<{ credential: CredentialRecord; rate: RateLimitState } | EngineResponse> {
    const check = await credentials.check(request.headers, at)
    if (!check.ok) {
      const failures = await limiter.hit(
        `auth-failure:${request.ip ?? 'unknown'}`,
        limits.authFailures,
        60,
        at,
      )
      if (!failures.allowed) return tooManyRequests(failures)
      return json(401, ERROR_BODIES.unauthorized)
    }
    // Mobile tokens may only ingest events and check-ins (section 5.5).
    if (check.credential.kind === 'mobile' && endpoint === 'deployments') {
      return json(403, ERROR_BODIES.forbidden)
    }
    const rate = await limiter.hit(
      `${check.credential.id}:${endpoint}`,
      limits.requests,
      limits.periodSeconds,
      at,
    )
    if (!rate.allowed) return tooManyRequests(rate)
    return { credential: check.credential, rate }
  }

  /** Runs one operation: admit, parse, build the record, write it durably, answer 201. */
  async function accept<T>(
    endpoint: Endpoint,
    envelope: string,
    request: EngineRequest,
    parse: (body: unknown, at: Date) => ParseResult<T>,
    build: (value: T, credential: CredentialRecord, at: Date) => WriteOp,
    respond: (op: WriteOp, id: string, legacyId: number | null) => unknown,
  ): Promise<EngineResponse> {
    const at = now()
    const admitted = await admit(endpoint, request, at)
    if ('status' in admitted) return admitted
    const headers = rateLimitHeaders(admitted.rate)
    let body = request.body
    if (request.text !== undefined) {
      try {
        body = JSON.parse(request.text)
      } catch {
        return json(
          400,
          { error: `${missingEnvelopeMessage(envelope)} (the request body is not valid JSON)` },
          headers,
        )
      }
    }
    const parsed = parse(body, at)
    if (!parsed.ok) {
      return parsed.status === 400
        ? json(400, { error: parsed.error }, headers)
        : json(422, { errors: parsed.errors }, headers)
    }
    const op = build(parsed.value, admitted.credential, at)
    const result = await writer.write(op)
    return json(201, respond(op, result.id, result.legacyId), headers)
  }

  return {
    ingestEvent(request) {
      return accept(
        'ingest_events',
        'event',
        request,
        (body, at) => parseEventEnvelope(body, { now: at }),
        (event, credential, at): WriteOp => {
          const base = {
            id: uuidv7(at.getTime()),
            projectId: credential.projectId,
            receivedAt: at,
            event,
            occurredAt: parseDateTime(event.occurred_at),
          }
          if (event.event_type === 'span') return { ...base, type: 'span' }
          return {
            ...base,
            type: 'event',
            issue: event.event_type === 'error' ? issueGrouping(event) : null,
            monitor:
              event.event_type === 'check_in' ? monitorFromEvent(event, serviceEnvironment) : null,
            deployment: deploymentFromEvent(event),
          }
        },
        (op, id, legacyId) =>
          op.type === 'span'
            ? { id, legacy_id: legacyId, status: 'accepted', type: 'span' }
            : { id, legacy_id: legacyId, status: 'accepted' },
      )
    },

    checkIn(request) {
      return accept(
        'check_ins',
        'check_in',
        request,
        (body, at) => parseCheckInEnvelope(body, { now: at, serviceEnvironment }),
        (checkIn, credential, at) => ({
          type: 'check_in',
          id: uuidv7(at.getTime()),
          projectId: credential.projectId,
          receivedAt: at,
          checkIn,
          monitor: monitorFromCheckIn(checkIn),
        }),
        (_op, id) => ({ id, status: 'accepted' }),
      )
    },

    recordDeployment(request) {
      return accept(
        'deployments',
        'deployment',
        request,
        (body) => parseDeploymentEnvelope(body),
        (deployment, credential, at) => ({
          type: 'deployment',
          id: uuidv7(at.getTime()),
          projectId: credential.projectId,
          receivedAt: at,
          deployment,
          upsert: deploymentFromApi(deployment, at),
        }),
        (_op, id, legacyId) => ({ id, legacy_id: legacyId, status: 'accepted' }),
      )
    },

    management,
    flush: () => writer.flush(),
    close: () => writer.close(),
  }
}
