import type { AccountApi } from '../account/api'
import type { SessionSettings } from '../account/sessions'
import type { AlertsApi } from '../alerts/config-api'
import type { Mailer } from '../alerts/email'
import type { HostResolver } from '../alerts/targets'
import type { WebhookSend } from '../alerts/webhook-send'
import type { EngineResponse } from '../http'
import type { HttpHandler } from '../http/handle'
import type { HostOperation } from '../http/openapi'
import type { IngestApi } from '../ingest/api'
import type { BatchLimits } from '../ingest/batch-lines'
import type { BatchWriterOptions } from '../ingest/batch-writer'
import type { IngestLog, ProjectionStore } from '../log/ports'
import type { Projector } from '../log/projector'
import type { ReadBarrier } from '../log/read-barrier'
import type { EngineLogger } from '../logger'
import type { ManagementApi } from '../management/api'
import type {
  AlertDeliveryStore,
  IngestStore,
  RateLimitStore,
  ReadinessProbe,
  RetentionReport,
  RetentionStore,
} from '../ports'
import type { RateLimiter, RateLimitSettings } from '../rate-limit'
import type { ReadinessOptions } from '../readiness'
import type { ReadApi } from '../reads/read-api-types'
import type { SourceExcerptsOptions } from '../source/excerpts'
import type { SourceSettingsApi } from '../source/settings-api'
import type { SourceMapResolver } from '../sourcemaps/resolve'
import type { SourceMapsApi } from '../sourcemaps/upload-api'
import type { SourceMapLimits } from '../sourcemaps/upload-limits'

/**
 * What the engine runs on: every port at once, as each store of `@tis/storage-postgres` has
 * them (acceptance on the ingest log, its projection, alert delivery, retention, shared rate
 * limits and a readiness ping).
 */
export interface EngineStore
  extends Omit<IngestStore, keyof RateLimitStore | keyof ReadinessProbe>,
    IngestLog,
    ProjectionStore,
    AlertDeliveryStore,
    RetentionStore,
    RateLimitStore,
    ReadinessProbe {}

/** Settings of the engine: what `SERVICE_*` variables configure (see docs/server.md). */
export interface EngineConfig {
  /** Application administrators; empty: `admin@localhost`, the first-run user. @default [] */
  readonly adminEmails?: readonly string[]
  /** The environment of records that name none. @default 'production' */
  readonly serviceEnvironment?: string
  readonly rateLimits?: Partial<RateLimitSettings>
  readonly batchLimits?: Partial<BatchLimits>
  /** Largest request body, in bytes (a decompressed single-record body, too). */
  readonly maxBodyBytes?: number
  /** The public base URL (DSNs, upload URLs); else each request's own origin. */
  readonly publicUrl?: string | undefined
  /** How long a looked-up ingest key is trusted before it is looked up again, in ms. */
  readonly credentialCacheMs?: number
  /** Group commit of acceptance: batches in flight (1 on a single-connection store). */
  readonly batch?: BatchWriterOptions
  readonly sessions?: Partial<SessionSettings>
  /** Source excerpts of error events: the code hosts, tokens and limits. */
  readonly sources?: Omit<SourceExcerptsOptions, 'store' | 'now' | 'logger'>
  readonly sourceMaps?: Partial<SourceMapLimits>
  readonly readiness?: Pick<ReadinessOptions, 'timeoutMs' | 'cacheMs' | 'retryAfterSeconds'>
  readonly projection?: EngineProjectionConfig
  readonly alerts?: EngineAlertsConfig
  readonly retention?: EngineRetentionConfig
  readonly http?: EngineHttpConfig
}

/** The HTTP interface, {@link Engine.handle}. */
export interface EngineHttpConfig {
  /**
   * Origins whose pages may call the browser-facing ingest operations (`SERVICE_CORS_ORIGINS`);
   * `['*']` allows any. @default ['*']
   */
  readonly corsOrigins?: readonly string[]
  /**
   * `GET /api/v1/openapi.json`: the host's own documented operations, listed with the engine's,
   * or `false` to not serve the document. @default served, the engine's operations only
   */
  readonly openApi?: { readonly hostOperations?: readonly HostOperation[] } | false
}

/** The ingest log's projection. */
export interface EngineProjectionConfig {
  /** Project in this process (`false`: a `tis worker` does). @default true */
  readonly run?: boolean
  /** Most entries per round. @default 1000 (250 on a single-connection store) */
  readonly batchSize?: number
  /** Longest a read waits for the projection, in ms. @default 2000 */
  readonly readBarrierMs?: number
  /** Readiness fails past this lag, in seconds. @default 60 */
  readonly maxLagSeconds?: number
  /** A single-connection store (PGlite): rounds of at most 250 entries. @default false */
  readonly embedded?: boolean
}

/** Alert channels and their delivery. */
export interface EngineAlertsConfig {
  /** Webhook and Slack targets may be private addresses. @default false */
  readonly allowPrivateTargets?: boolean
  /** Deliver alerts from this process. @default true */
  readonly worker?: boolean
  /** Lease of a claimed delivery, in ms. @default 60000 */
  readonly leaseMs?: number
  /** Pause between rounds of the alerts worker, in ms. @default 1000 */
  readonly intervalMs?: number
}

/** Expiry of old telemetry. */
export interface EngineRetentionConfig {
  /** A project's period when it sets none, in days. @default 90 */
  readonly days?: number
  /** Rows per delete statement. @default 2000 */
  readonly batchSize?: number
  /** Between passes, in seconds; 0 turns the passes off. @default 3600 */
  readonly intervalSeconds?: number
  /** Before the first pass, in ms. @default 60000 */
  readonly firstDelayMs?: number
}

/** What the engine reaches the world through: I/O it never does itself. */
export interface EngineAdapters {
  readonly logger?: EngineLogger
  /** @default () => new Date() */
  readonly now?: () => Date
  /** @default shared counters in the store */
  readonly limiter?: RateLimiter
  /** DNS of alert targets (checked at creation and at send). @default none: names are refused */
  readonly resolveHost?: HostResolver
  /**
   * Posts webhooks and Slack messages: the host's network I/O (the reference server's is a fetch
   * sender, `apps/server/src/alerts-webhook.ts`). It must not follow redirects, and must reject
   * once `timeoutMs` passes without an answer.
   * @default none: nothing is posted; each webhook and Slack attempt is recorded with the error
   * "no webhook sender configured (adapters.webhook)" and retried on the schedule (failed after
   * 24 hours), as email attempts are without a `mailer`.
   */
  readonly webhook?: WebhookSend
  /** Sends alert emails; `null`: email attempts fail and are retried. @default null */
  readonly mailer?: Mailer | null
  /** The `User-Agent` of alert deliveries. @default 'tis-alerts' */
  readonly userAgent?: string
  /** Resolves JavaScript frames of events stored before their maps (the store's enricher's). */
  readonly sourceMapResolver?: SourceMapResolver
  /**
   * The projector of this process when it runs somewhere else than the engine's event loop (the
   * reference server's is a worker thread over its own connections): nudged by every append,
   * hurried by waiting reads, whose progress wakes them, started and stopped with the engine.
   * Used when `config.projection.run` is on. @default a projector on this event loop over `store`
   */
  readonly projector?: Projector
}

/** Options of {@link createEngine}. */
export interface EngineOptions {
  readonly store: EngineStore
  readonly config?: EngineConfig
  readonly adapters?: EngineAdapters
}

/** Every API of tis over one store, and its background work. */
export interface Engine {
  /** Ingestion: events, batches, check-ins, deployments, mobile tokens, Sentry, OTLP. */
  readonly ingest: IngestApi
  /** Users, projects, keys, members, mobile tokens, rate limits, retention. */
  readonly management: ManagementApi
  /** Issues, events, monitors, deployments, performance and traces. */
  readonly reads: ReadApi
  /** A project's source excerpt settings. */
  readonly sourceSettings: SourceSettingsApi
  /** Dashboard sessions and access-token rotation. */
  readonly account: AccountApi
  /** A project's alert channels, rules, delivery log and test messages. */
  readonly alerts: AlertsApi
  /** Source maps: Sentry's upload protocol and the project's bundle list. */
  readonly sourceMaps: SourceMapsApi
  /** `GET /health/ready`, with the projection's lag. */
  readiness(): Promise<EngineResponse>
  /**
   * Answers one HTTP request of the engine's interface (every operation of the one table, with
   * its body cap, CORS, and JSON 404/405/413): a host mounts it, e.g.
   * `app.all('/api/*', (c) => engine.handle(c.req.raw))`.
   */
  readonly handle: HttpHandler
  /** What reads wait behind: the projection passing what was acknowledged before them. */
  readonly barrier: ReadBarrier
  /** Resolves whether the projection passed everything acknowledged so far within `timeoutMs`. */
  settled(timeoutMs?: number): Promise<boolean>
  /** One alerts round now (missed monitors, summaries, deliveries), as the worker runs it. */
  runAlerts(): Promise<void>
  /** One retention pass now, as the worker runs it: its report, `undefined` when it failed. */
  runRetention(): Promise<RetentionReport | undefined>
  /** Which background work {@link Engine.start} runs in this process. */
  readonly workers: {
    readonly projector: boolean
    readonly alerts: boolean
    readonly retention: boolean
  }
  /** Starts the background work: the projector, the alerts worker, the retention passes. */
  start(): void
  /** Resolves once every accepted record is acknowledged. */
  flush(): Promise<void>
  /**
   * Flushes, stops accepting, stops the background work and projects what is pending for up to
   * `drainMs` (5 s). The store stays open.
   */
  stop(options?: { readonly drainMs?: number }): Promise<void>
}
