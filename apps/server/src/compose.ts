import {
  type AccountApi,
  type AlertsApi,
  type BatchWriterOptions,
  createAccountApi,
  createAlertsApi,
  createIngestApi,
  createManagementApi,
  createProjectAccess,
  createReadApi,
  createReadinessCheck,
  createSourceExcerpts,
  createSourceMapsApi,
  createSourceSettingsApi,
  type EngineResponse,
  type IngestApi,
  type IngestStore,
  type ManagementApi,
  type ReadApi,
  type RetentionStore,
  type SourceMapResolver,
  type SourceMapsApi,
  type SourceSettingsApi,
} from '@tis/ingest'
import { resolveHost } from './alert-resolver'
import { createZlibInflater } from './body-inflater'
import type { ServerConfig } from './config'
import type { Logger } from './logger'
import type { ProjectionRuntime } from './projection'
import { rateLimiter } from './rate-limiter'
import { sourceOptions } from './sources'

/** Whether `store` keeps retention settings (every store of @tis/storage-postgres does). */
export function hasRetention(store: object): store is RetentionStore {
  const s = store as Partial<RetentionStore>
  return typeof s.expireTelemetry === 'function' && typeof s.storageUsage === 'function'
}

/** The APIs the reference server serves, each built by its own factory over the store's ports. */
export interface ServerEngine {
  /** Ingestion: events, batches, check-ins, deployments, mobile tokens. */
  readonly ingest: IngestApi
  /** Users, projects, keys, members, mobile tokens, rate-limit overrides. */
  readonly management: ManagementApi
  /** Issues, events, monitors, deployments, performance and traces. */
  readonly reads: ReadApi
  /** A project's source excerpt settings. */
  readonly sourceSettings: SourceSettingsApi
  /** Dashboard sessions and access-token rotation. */
  readonly account: AccountApi
  /** A project's alert channels, rules, delivery log and test messages. */
  readonly alerts: AlertsApi
  /** Source maps: Sentry's upload protocol (`/api/0/…`) and the project's bundle list. */
  readonly sourceMaps: SourceMapsApi
  /** `GET /health/ready`. */
  readiness(): Promise<EngineResponse>
  /** Resolves once every accepted record is committed. */
  flush(): Promise<void>
  /** Flushes and stops accepting records; the store stays open. */
  close(): Promise<void>
}

/** What {@link composeEngine} builds the APIs from. */
export interface ComposeOptions {
  readonly config: ServerConfig
  readonly store: IngestStore
  readonly logger: Logger
  /** Group-commit settings that suit the store (see `openStore`). */
  readonly batch: BatchWriterOptions
  /** @default () => new Date() */
  readonly now?: () => Date
  /**
   * The ingest log's projection: acceptance appends to the log, reads wait behind the read
   * barrier, readiness reports the lag. Without it, records are written directly.
   */
  readonly projection?: ProjectionRuntime | undefined
  /**
   * The process's source-map resolver (the one the projection enriches with): the read API
   * resolves with it the frames of errors stored before their maps were uploaded.
   */
  readonly sourceMapResolver?: SourceMapResolver | undefined
}

/**
 * The composition root of the engine: every API gets only the ports and settings it needs, all
 * from one store here. An embedder composes the same factories, or only some of them (see
 * docs/embedding.md).
 */
export function composeEngine(options: ComposeOptions): ServerEngine {
  const { config, store, logger, batch, now, projection, sourceMapResolver } = options
  const clock = now ? { now } : {}
  // Reads wait for the projection to pass what was acknowledged before them (once their caller
  // may see the project); readiness shows its lag.
  const barrier = projection ? { barrier: projection.barrier } : {}
  const withLag = (check: () => Promise<EngineResponse>) =>
    projection ? projection.readiness(check) : check
  const inflater = createZlibInflater()
  const access = createProjectAccess({ store, adminEmails: config.adminEmails })
  const ingest = createIngestApi({
    acceptance: projection ? { writeBatch: projection.accept } : store,
    credentials: store,
    mobileTokens: store,
    serviceEnvironment: config.serviceEnvironment,
    rateLimits: config.rateLimits,
    limiter: rateLimiter(config, store, logger),
    batch,
    batchLimits: config.batchLimits,
    // A compressed single-record body is capped at the request cap once decompressed, too.
    maxBodyBytes: config.maxBodyBytes,
    // The engine inflates nothing itself: gzip and deflate bodies are decoded over node:zlib.
    inflater,
    logger,
    ...clock,
  })
  const excerpts = createSourceExcerpts({
    ...sourceOptions(config, logger),
    logger,
    store,
    ...clock,
  })
  return {
    ingest,
    management: createManagementApi({
      store,
      access,
      rateLimits: config.rateLimits,
      ...(config.publicUrl ? { publicUrl: config.publicUrl } : {}),
      onCredentialsChanged: () => ingest.forgetCredentials(),
      ...(hasRetention(store)
        ? { retention: { store, defaultDays: config.retention.days, ...barrier } }
        : {}),
      ...clock,
    }),
    reads: createReadApi({
      store,
      access,
      sources: excerpts,
      ...(sourceMapResolver ? { sourceMaps: { resolver: sourceMapResolver, lookup: store } } : {}),
      ...barrier,
      ...clock,
    }),
    sourceSettings: createSourceSettingsApi({ store, access, excerpts, ...clock }),
    account: createAccountApi({ store, access, settings: config.sessions, ...clock }),
    alerts: createAlertsApi({
      store,
      access,
      allowPrivateTargets: config.alerts.allowPrivateTargets,
      emailConfigured: config.alerts.smtp !== null,
      resolve: resolveHost,
      ...clock,
    }),
    sourceMaps: createSourceMapsApi({
      store,
      access,
      // A Sentry deploy is accepted like `POST /api/v1/deployments`: through the ingest log.
      deployments: projection ? { writeBatch: projection.accept } : store,
      inflater,
      ...(config.publicUrl ? { publicUrl: config.publicUrl } : {}),
      limits: config.sourceMaps,
      ...clock,
    }),
    readiness: withLag(
      createReadinessCheck({
        ...(store.ping ? { ping: store.ping.bind(store) } : {}),
        onUnready: (error) =>
          logger.warn('the store failed its readiness ping', { error: String(error) }),
      }),
    ),
    flush: () => ingest.flush(),
    close: () => ingest.close(),
  }
}
