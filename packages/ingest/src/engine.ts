import {
  ERROR_BODIES,
  type NormalizedEvent,
  type ParseResult,
  parseCheckInEnvelope,
  parseDateTime,
  parseDeploymentEnvelope,
  parseEventEnvelope,
  parseMobileTokenEnvelope,
} from '@tis/schema'
import { type AccountApi, createAccountApi } from './account'
import { createBatchIngest } from './batch-accept'
import { type BatchLimits, DEFAULT_BATCH_LIMITS } from './batch-ingest'
import { type BatchWriterOptions, createBatchWriter } from './batch-writer'
import { type CredentialCache, createCredentialCache } from './credentials'
import { issueGrouping } from './grouping'
import { type EngineRequest, type EngineResponse, json } from './http'
import { generateToken, sha256Hex, TOKEN_PREFIXES, uuidFromParts, uuidv7 } from './ids'
import { createManagementApi, type ManagementApi } from './management'
import {
  allowsEventType,
  bindCheckIn,
  bindEvent,
  bindingOf,
  MOBILE_ENDPOINTS,
  mintResponse,
} from './mobile'
import type { CredentialRecord, IngestStore, WriteOp } from './ports'
import {
  createMemoryRateLimiter,
  type RateLimiter,
  type RateLimitState,
  rateLimitHeaders,
  tooManyRequests,
} from './rate-limit'
import { createReadinessCheck, type ReadinessOptions } from './readiness'
import { createReadApi, type ReadApi } from './reads'
import {
  deploymentFromApi,
  deploymentFromEvent,
  monitorFromCheckIn,
  monitorFromEvent,
} from './records'
import { DEFAULT_MAX_BODY_BYTES, parseBody } from './request-body'
import { DEFAULT_SESSION_SETTINGS, type SessionSettings } from './sessions'
import { createSharedRateLimiter } from './shared-rate-limit'
import { createSourceExcerpts, type SourceExcerptsOptions } from './source/excerpts'
import { createSourceSettingsApi, type SourceSettingsApi } from './source/settings-api'

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
   * @default createSharedRateLimiter(store) when the store has shared counters, else createMemoryRateLimiter()
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
  /**
   * Size caps of `POST /api/v1/ingest_events/batch`; each field defaults as in
   * {@link DEFAULT_BATCH_LIMITS} (2 MiB as sent, 8 MiB decompressed, 1 MiB per envelope).
   */
  readonly batchLimits?: Partial<BatchLimits>
  /**
   * Largest body of `POST /api/v1/ingest_events`, `/check_ins`, `/deployments` and
   * `/mobile_ingest_tokens` once decompressed (`Content-Encoding: gzip` or `deflate`), in bytes:
   * the host's byte cap counts the compressed bytes, this the inflated ones.
   * @default 1048576
   */
  readonly maxBodyBytes?: number
  /**
   * Source excerpts of error events (issue 11): the code host, tokens and limits. Without it,
   * frames are still listed, and answer `not_configured` unless a project stores its own token
   * (which needs `secretKey`).
   */
  readonly sources?: Omit<SourceExcerptsOptions, 'store' | 'now'>
  /**
   * The readiness check (`GET /health/ready`): how long the store's ping may take and how long
   * an answer is reused. @default { timeoutMs: 2000, cacheMs: 1000, retryAfterSeconds: 5 }
   */
  readonly readiness?: Pick<ReadinessOptions, 'timeoutMs' | 'cacheMs' | 'retryAfterSeconds'>
  /**
   * Dashboard session lifetimes; each field defaults as in {@link DEFAULT_SESSION_SETTINGS}
   * (7 days idle, 30 days absolute, `last_seen_at` written at most once a minute).
   */
  readonly sessions?: Partial<SessionSettings>
}

/** The ingestion engine: one function per operation, each answering `{ status, headers, body }`. */
export interface IngestEngine {
  /** `POST /api/v1/ingest_events` */
  ingestEvent(request: EngineRequest): Promise<EngineResponse>
  /**
   * `POST /api/v1/ingest_events/batch`: NDJSON (optionally gzip) of up to 100 event envelopes,
   * each with an `event_id`, all or nothing: 202 with one result per line when every line is
   * stored (or already was), 422 with the invalid lines' errors and nothing stored otherwise, a
   * whole-request 429 (taking none of the window) when the lines do not fit in it.
   */
  ingestEventBatch(request: EngineRequest): Promise<EngineResponse>
  /** `POST /api/v1/check_ins` */
  checkIn(request: EngineRequest): Promise<EngineResponse>
  /** `POST /api/v1/deployments` */
  recordDeployment(request: EngineRequest): Promise<EngineResponse>
  /** `POST /api/v1/mobile_ingest_tokens` (server project API keys only). */
  mintMobileToken(request: EngineRequest): Promise<EngineResponse>
  /** The management API (users, projects, keys, members). */
  readonly management: ManagementApi
  /** The read API: issues inbox and event list, with the management API's access rules. */
  readonly reads: ReadApi
  /** A project's source excerpt settings (GitHub token, path prefix, context lines). */
  readonly sourceSettings: SourceSettingsApi
  /** The signed-in user's dashboard sessions and access-token rotation. */
  readonly account: AccountApi
  /**
   * `GET /health/ready`: 200 when the store answers a trivial query within the timeout (or has no
   * `ping`), else 503 with `Retry-After`. Answers are reused for about a second; never rejects.
   */
  readiness(): Promise<EngineResponse>
  /** Resolves once every accepted record is committed. */
  flush(): Promise<void>
  /** Flushes and stops accepting records; the store stays open. */
  close(): Promise<void>
}

/** The per-token counters: separate for each endpoint (section 8). */
type Endpoint = 'ingest_events' | 'check_ins' | 'deployments' | 'mobile_ingest_tokens'

const DEFAULT_LIMITS: RateLimitSettings = { requests: 1200, periodSeconds: 60, authFailures: 120 }

/** Creates the ingestion engine over a store. */
export function createIngestEngine(options: IngestEngineOptions): IngestEngine {
  const now = options.now ?? (() => new Date())
  const serviceEnvironment = options.serviceEnvironment ?? 'production'
  const limits = { ...DEFAULT_LIMITS, ...options.rateLimits }
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES
  const { store } = options
  const limiter =
    options.limiter ??
    (store.incrementWindows && store.pruneWindows
      ? createSharedRateLimiter(
          {
            incrementWindows: store.incrementWindows.bind(store),
            pruneWindows: store.pruneWindows.bind(store),
          },
          {
            onPruneError: (error) =>
              options.logger?.warn('pruning rate-limit windows failed', { error: String(error) }),
          },
        )
      : createMemoryRateLimiter())
  const credentials: CredentialCache = createCredentialCache(store, {
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
    rateLimits: limits,
    now,
    onCredentialsChanged: () => credentials.clear(),
  })
  const sources = createSourceExcerpts({
    ...(options.logger ? { logger: options.logger } : {}),
    ...options.sources,
    store: options.store,
    now,
  })

  /** Authentication, the endpoint rule and the request cap; a response when refused. */
  async function admit(
    endpoint: Endpoint,
    request: EngineRequest,
    at: Date,
    count = 1,
  ): Promise<{ credential: CredentialRecord; rate: RateLimitState } | EngineResponse> {
    const check = await credentials.check(request.headers, at)
    if (!check.ok) {
      // A refused credential that was found names its project, whose override then applies.
      const cap = check.credential?.rateLimit?.authFailureRequests ?? limits.authFailures
      const failures = await limiter.hit(`auth-failure:${request.ip ?? 'unknown'}`, cap, 60, at)
      if (!failures.allowed) return tooManyRequests(failures)
      return json(401, ERROR_BODIES.unauthorized)
    }
    // Mobile tokens may only ingest events and check-ins (section 5.5).
    if (check.credential.kind === 'mobile' && !MOBILE_ENDPOINTS.has(endpoint)) {
      return json(403, ERROR_BODIES.forbidden)
    }
    const override = check.credential.rateLimit
    const limit = override?.requests ?? limits.requests
    const period = override?.periodSeconds ?? limits.periodSeconds
    const key = `${check.credential.id}:${endpoint}`
    // A batch larger than a whole window could never fit: 413, which Logister's clients answer
    // by splitting it.
    if (count > limit) {
      return json(413, {
        error: `batch has ${count} envelopes; this credential may send at most ${limit} per ${period}-second window`,
      })
    }
    const rate = await limiter.hit(key, limit, period, at, count)
    if (rate.allowed) return { credential: check.credential, rate }
    // A batch (count > 1) is all or nothing: refused, it gives its units back at once.
    return tooManyRequests(count > 1 ? await limiter.hit(key, limit, period, at, -count) : rate)
  }

  /** Runs one operation: admit, parse, build the record, write it durably, answer 201. */
  async function accept<T>(
    endpoint: Endpoint,
    envelope: string,
    request: EngineRequest,
    parse: (body: unknown, at: Date, credential: CredentialRecord) => ParseResult<T>,
    build: (value: T, credential: CredentialRecord, at: Date) => WriteOp | EngineResponse,
    respond: (op: WriteOp, id: string, legacyId: number | null) => unknown,
  ): Promise<EngineResponse> {
    const at = now()
    const admitted = await admit(endpoint, request, at)
    if ('status' in admitted) return admitted
    const headers = rateLimitHeaders(admitted.rate)
    const body = parseBody(request, envelope, maxBodyBytes)
    if ('status' in body) return { ...body, headers }
    const parsed = parse(body.value, at, admitted.credential)
    if (!parsed.ok) {
      return parsed.status === 400
        ? json(400, { error: parsed.error }, headers)
        : json(422, { errors: parsed.errors }, headers)
    }
    const op = build(parsed.value, admitted.credential, at)
    if ('status' in op) return { ...op, headers: { ...op.headers, ...headers } }
    const result = await writer.write(op)
    if (result.conflict) {
      return json(422, { errors: ['event_id is already used by another project'] }, headers)
    }
    if (result.duplicate) {
      return json(
        200,
        { ...(respond(op, result.id, result.legacyId) as object), duplicate: true },
        headers,
      )
    }
    return json(201, respond(op, result.id, result.legacyId), headers)
  }

  /**
   * The id of a new event or span: the client's `event_id`; for a span without one, an id
   * derived from (project, trace_id, span_id) when both are present; else a fresh UUID v7.
   * `dedupe` asks the store to answer a repeat as a duplicate.
   */
  function recordId(event: NormalizedEvent, projectId: string, at: Date) {
    if (event.event_id) return { id: event.event_id, dedupe: true }
    if (event.event_type === 'span') {
      const traceId = event.trace_id ?? event.context.trace_id
      const spanId = event.span_id ?? event.context.span_id
      if (traceId !== undefined && typeof spanId === 'string') {
        return { id: uuidFromParts('span', projectId.toLowerCase(), traceId, spanId), dedupe: true }
      }
    }
    return { id: uuidv7(at.getTime()), dedupe: false }
  }

  /** The write of an accepted event envelope for a credential (its mobile binding applied). */
  function buildEventOp(
    sent: NormalizedEvent,
    credential: CredentialRecord,
    at: Date,
  ): WriteOp | EngineResponse {
    let event = sent
    if (credential.binding) {
      if (!allowsEventType(credential.binding, event.event_type)) {
        return json(403, ERROR_BODIES.forbidden)
      }
      const bound = bindEvent(credential.binding, event)
      if ('errors' in bound) return json(422, { errors: bound.errors })
      event = bound.event
    }
    const base = {
      ...recordId(event, credential.projectId, at),
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
      monitor: event.event_type === 'check_in' ? monitorFromEvent(event, serviceEnvironment) : null,
      deployment: deploymentFromEvent(event),
    }
  }

  // Batches are written straight to the store, one transaction each (all or none); flush and
  // close wait for them like for the batch writer's.
  const batchWrites = new Set<Promise<unknown>>()
  let closed = false
  const ingestEventBatch = createBatchIngest({
    limits: { ...DEFAULT_BATCH_LIMITS, ...options.batchLimits },
    now,
    admit: (request, at, count) => admit('ingest_events', request, at, count),
    build: buildEventOp,
    async write(ops) {
      if (closed) throw new Error('the engine is closed')
      const write = store.writeBatch(ops, { allOrNothing: true })
      batchWrites.add(write)
      try {
        return await write
      } finally {
        batchWrites.delete(write)
      }
    },
  })

  return {
    ingestEventBatch,

    ingestEvent(request) {
      return accept(
        'ingest_events',
        'event',
        request,
        (body, at) => parseEventEnvelope(body, { now: at }),
        buildEventOp,
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
        (body, at, credential) =>
          parseCheckInEnvelope(body, {
            now: at,
            // A mobile token's environment is the default its check-ins get.
            serviceEnvironment: credential.binding?.environment ?? serviceEnvironment,
          }),
        (sent, credential, at): WriteOp | EngineResponse => {
          let checkIn = sent
          if (credential.binding) {
            if (!allowsEventType(credential.binding, 'check_in')) {
              return json(403, ERROR_BODIES.forbidden)
            }
            const bound = bindCheckIn(credential.binding, checkIn)
            if ('errors' in bound) return json(422, { errors: bound.errors })
            checkIn = bound.checkIn
          }
          return {
            type: 'check_in',
            ...(checkIn.event_id
              ? { id: checkIn.event_id, dedupe: true }
              : { id: uuidv7(at.getTime()), dedupe: false }),
            projectId: credential.projectId,
            receivedAt: at,
            checkIn,
            monitor: monitorFromCheckIn(checkIn),
          }
        },
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

    async mintMobileToken(request) {
      const at = now()
      const admitted = await admit('mobile_ingest_tokens', request, at)
      if ('status' in admitted) return admitted
      const headers = rateLimitHeaders(admitted.rate)
      const body = parseBody(request, 'mobile_ingest_token', maxBodyBytes)
      if ('status' in body) return { ...body, headers }
      const parsed = parseMobileTokenEnvelope(body.value)
      if (!parsed.ok) {
        return parsed.status === 400
          ? json(400, { error: parsed.error }, headers)
          : json(422, { errors: parsed.errors }, headers)
      }
      const { credential } = admitted
      if (parsed.value.platform !== credential.integrationKind) {
        const message = `platform does not match the project's integration kind (project: ${credential.integrationKind}, sent: ${parsed.value.platform})`
        return json(422, { errors: [message] }, headers)
      }
      const token = generateToken(TOKEN_PREFIXES.mobile, 32)
      const record = await store.createMobileToken({
        ...bindingOf(parsed.value),
        id: uuidv7(at.getTime()),
        projectId: credential.projectId,
        parentKeyId: credential.id,
        tokenDigest: sha256Hex(token),
        createdAt: at,
        expiresAt: new Date(at.getTime() + parsed.value.expires_in_seconds * 1000),
      })
      return json(201, mintResponse(token, record), headers)
    },

    management,
    reads: createReadApi({ store: options.store, management, now, sources }),
    sourceSettings: createSourceSettingsApi({
      store: options.store,
      management,
      excerpts: sources,
      now,
    }),
    account: createAccountApi({
      store: options.store,
      management,
      settings: { ...DEFAULT_SESSION_SETTINGS, ...options.sessions },
      now,
    }),
    readiness: createReadinessCheck({
      ...options.readiness,
      ...(store.ping ? { ping: store.ping.bind(store) } : {}),
      onUnready: (error) =>
        options.logger?.warn('the store failed its readiness ping', { error: String(error) }),
    }),
    flush: async () => {
      await Promise.allSettled([...batchWrites])
      await writer.flush()
    },
    close: async () => {
      closed = true
      await Promise.allSettled([...batchWrites])
      await writer.close()
    },
  }
}
