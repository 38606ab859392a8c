import {
  type OtlpSignal,
  parseCheckInEnvelope,
  parseDeploymentEnvelope,
  parseEventEnvelope,
  parseSessionEnvelope,
} from '@tis/schema'
import type { EngineRequest, EngineResponse } from '../http'
import type { EngineLogger } from '../logger'
import type { AcceptanceStore, CredentialStore, MobileTokenStore } from '../ports'
import {
  createMemoryRateLimiter,
  DEFAULT_RATE_LIMITS,
  type RateLimiter,
  type RateLimitSettings,
} from '../rate-limit'
import { createAdmission } from './admission'
import { createBatchIngest } from './batch'
import { type BatchLimits, DEFAULT_BATCH_LIMITS } from './batch-lines'
import { type BatchWriterOptions, createBatchWriter } from './batch-writer'
import { createCredentialCache } from './credentials'
import { createEventOpBuilder } from './event-op'
import { createMobileTokenMint } from './mint'
import { createOtlpIngest, OTLP_MAX_BODY_BYTES } from './otlp'
import { checkInOp, deploymentOp } from './record-ops'
import { DEFAULT_MAX_BODY_BYTES } from './request-body'
import { createSentryIngest, SENTRY_MAX_BODY_BYTES, type SentryEndpoint } from './sentry'
import { nativeSessionIdentity, sessionOp } from './session-op'
import { createSingleRecordAcceptance } from './single'

/** Options of {@link createIngestApi}. */
export interface IngestApiOptions {
  /**
   * Where accepted records become durable: every record, single or batched, goes through the
   * group commit into its one call. The API does not close it.
   */
  readonly acceptance: AcceptanceStore
  /** Where presented API keys and mobile tokens are looked up (by digest). */
  readonly credentials: CredentialStore
  /** Where minted mobile tokens are stored. */
  readonly mobileTokens: Pick<MobileTokenStore, 'createMobileToken'>
  /**
   * The service's own environment (`SERVICE_ENV`), the default of check-ins.
   * @default 'production'
   */
  readonly serviceEnvironment?: string
  /** Request caps; each field defaults as in {@link DEFAULT_RATE_LIMITS}. */
  readonly rateLimits?: Partial<RateLimitSettings>
  /**
   * Counts requests per window: `createSharedRateLimiter(store)` for exact caps across
   * instances on one database.
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
}

/** The ingestion API: one function per endpoint, each answering `{ status, headers, body }`. */
export interface IngestApi {
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
  /**
   * `POST /api/v1/sessions`: one release-health session update (`session`) or aggregate
   * (`sessions`), counted against the credential's `ingest_events` cap (docs/release-health.md).
   */
  recordSessions(request: EngineRequest): Promise<EngineResponse>
  /**
   * Sentry's protocol: `POST /api/:project/envelope/` and `POST /api/:project/store/` (the
   * project's number in `params.project`), authenticated by its DSN key (or an API key) as
   * Sentry's SDKs send it; 200 `{id}` once every record is durable (docs/guides/sentry-sdks.md).
   */
  ingestSentry(request: EngineRequest, endpoint: SentryEndpoint): Promise<EngineResponse>
  /**
   * OTLP/HTTP: `POST /v1/traces` and `POST /v1/logs`, protobuf or JSON, authenticated by a
   * project API key; answers in the request's encoding (an `Uint8Array` body for protobuf),
   * `partial_success` for rejected records (docs/guides/opentelemetry.md).
   */
  ingestOtlp(request: EngineRequest, signal: OtlpSignal): Promise<EngineResponse>
  /** `POST /api/v1/mobile_ingest_tokens` (server project API keys only). */
  mintMobileToken(request: EngineRequest): Promise<EngineResponse>
  /**
   * Forgets every cached credential, so a revocation made in this process applies at once: the
   * management API's `onCredentialsChanged`.
   */
  forgetCredentials(): void
  /** Resolves once every accepted record is committed. */
  flush(): Promise<void>
  /** Flushes and stops accepting records; the stores stay open. */
  close(): Promise<void>
}

/** Creates the ingestion API over its three ports. */
export function createIngestApi(options: IngestApiOptions): IngestApi {
  const now = options.now ?? (() => new Date())
  const limits = { ...DEFAULT_RATE_LIMITS, ...options.rateLimits }
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES
  const credentials = createCredentialCache(options.credentials, {
    ttlMs: options.credentialCacheMs ?? 1000,
  })
  const admit = createAdmission({
    credentials,
    limiter: options.limiter ?? createMemoryRateLimiter(),
    limits,
  })
  const writer = createBatchWriter(options.acceptance, {
    ...options.batch,
    onBatchError:
      options.batch?.onBatchError ??
      ((error, size) =>
        options.logger?.warn('batch write failed; retrying its records one by one', {
          size,
          error: String(error),
        })),
  })
  const serviceEnvironment = options.serviceEnvironment ?? 'production'
  const buildEventOp = createEventOpBuilder(serviceEnvironment)
  const accept = createSingleRecordAcceptance({
    admit,
    write: (op) => writer.write(op),
    now,
    maxBodyBytes,
  })

  const ingestEventBatch = createBatchIngest({
    limits: { ...DEFAULT_BATCH_LIMITS, ...options.batchLimits },
    now,
    admit: (request, at, count) => admit('ingest_events', request, at, count),
    build: buildEventOp,
    // The same group commit as single records: the batch is one all-or-nothing group in it.
    write: (ops) => writer.writeGroup(ops),
  })

  const ingestSentry = createSentryIngest({
    admit,
    now,
    maxBodyBytes: Math.max(maxBodyBytes, SENTRY_MAX_BODY_BYTES),
    serviceEnvironment,
    buildEvent: buildEventOp,
    buildCheckIn: checkInOp,
    write: (ops) => writer.writeGroup(ops),
    writeRecord: (op) => writer.write(op),
  })

  const ingestOtlp = createOtlpIngest({
    admit,
    now,
    maxBodyBytes: Math.max(maxBodyBytes, OTLP_MAX_BODY_BYTES),
    buildEvent: buildEventOp,
    // One record needs no group of its own (as for Sentry's one-event envelopes): it joins the
    // shared batch like a native event instead of paying a transaction and a commit alone.
    write: async (ops) =>
      ops.length === 1 ? [await writer.write(ops[0]!)] : writer.writeGroup(ops),
  })

  return {
    ingestEventBatch,
    ingestSentry,
    ingestOtlp,
    ingestEvent: (request) =>
      accept(
        {
          endpoint: 'ingest_events',
          envelope: 'event',
          parse: (body, at) => parseEventEnvelope(body, { now: at }),
          build: buildEventOp,
          respond: (op, id, legacyId) =>
            op.type === 'span'
              ? { id, legacy_id: legacyId, status: 'accepted', type: 'span' }
              : { id, legacy_id: legacyId, status: 'accepted' },
        },
        request,
      ),
    checkIn: (request) =>
      accept(
        {
          endpoint: 'check_ins',
          envelope: 'check_in',
          parse: (body, at, credential) =>
            parseCheckInEnvelope(body, {
              now: at,
              // A mobile token's environment is the default its check-ins get.
              serviceEnvironment: credential.binding?.environment ?? serviceEnvironment,
            }),
          build: checkInOp,
          respond: (_op, id) => ({ id, status: 'accepted' }),
        },
        request,
      ),
    recordDeployment: (request) =>
      accept(
        {
          endpoint: 'deployments',
          envelope: 'deployment',
          parse: (body) => parseDeploymentEnvelope(body),
          build: deploymentOp,
          respond: (_op, id, legacyId) => ({ id, legacy_id: legacyId, status: 'accepted' }),
        },
        request,
      ),
    recordSessions: (request) =>
      accept(
        {
          endpoint: 'ingest_events',
          envelope: 'session',
          parse: (body, at) => parseSessionEnvelope(body, at),
          build: (session, credential, at) =>
            sessionOp(session, nativeSessionIdentity(session, at), credential, at),
          respond: (_op, id) => ({ id, status: 'accepted' }),
        },
        request,
      ),
    mintMobileToken: createMobileTokenMint({
      admit,
      mobileTokens: options.mobileTokens,
      now,
      maxBodyBytes,
    }),
    forgetCredentials: () => credentials.clear(),
    flush: () => writer.flush(),
    close: () => writer.close(),
  }
}
