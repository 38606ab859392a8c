import { createRequire } from 'node:module'
import type {
  BatchWriterOptions,
  EngineOptions,
  EngineStore,
  Projector,
  SourceMapResolver,
} from '@tis/ingest'
import { resolveHost } from './alert-resolver'
import type { SmtpMailer } from './alerts-mailer'
import { createFetchWebhookSend } from './alerts-webhook'
import type { ServerConfig } from './config'
import type { Logger } from './logger'
import { SERVER_OPERATIONS } from './openapi'
import { rateLimiter } from './rate-limiter'
import { sourceOptions } from './sources'

/** What the server gives the engine besides its configuration. */
export interface ServerAdapters {
  readonly store: EngineStore
  readonly logger: Logger
  /** Group-commit settings that suit the store (see `openStore`). */
  readonly batch: BatchWriterOptions
  /** @default () => new Date() */
  readonly now?: (() => Date) | undefined
  /** The process's source-map resolver (the one the projection enriches with). */
  readonly sourceMapResolver: SourceMapResolver
  /** Sends alert emails (`SERVICE_SMTP_*`); `null` without SMTP settings. */
  readonly mailer: SmtpMailer | null
  /** Pacing of the alerts worker, in ms (tests shorten it). */
  readonly alertsIntervalMs?: number | undefined
  /** The projection thread's projector, when the server projects in one. */
  readonly projector?: Projector | undefined
}

/** The `User-Agent` of alert deliveries: `tis-alerts/<server version>`. */
export function alertsUserAgent(): string {
  try {
    const pkg = createRequire(import.meta.url)('../package.json') as { version?: string }
    return `tis-alerts/${pkg.version ?? '0.0.0'}`
  } catch {
    return 'tis-alerts'
  }
}

/**
 * The engine's options from the server's configuration (`SERVICE_*`) and its adapters: DNS of
 * alert targets, webhooks over fetch, SMTP, GitHub over fetch, the rate limiter the configuration
 * names.
 */
export function engineOptions(config: ServerConfig, adapters: ServerAdapters): EngineOptions {
  const { store, logger } = adapters
  return {
    store,
    config: {
      adminEmails: config.adminEmails,
      serviceEnvironment: config.serviceEnvironment,
      rateLimits: config.rateLimits,
      batchLimits: config.batchLimits,
      maxBodyBytes: config.maxBodyBytes,
      publicUrl: config.publicUrl,
      batch: adapters.batch,
      sessions: config.sessions,
      sources: sourceOptions(config, logger),
      sourceMaps: config.sourceMaps,
      projection: {
        run: config.projection.mode === 'server',
        batchSize: config.projection.batchSize,
        readBarrierMs: config.projection.readBarrierMs,
        maxLagSeconds: config.projection.maxLagSeconds,
        embedded: (adapters.batch.concurrency ?? 1) === 1,
      },
      alerts: {
        allowPrivateTargets: config.alerts.allowPrivateTargets,
        worker: config.alerts.worker,
        leaseMs: config.alerts.leaseSeconds * 1_000,
        ...(adapters.alertsIntervalMs === undefined
          ? {}
          : { intervalMs: adapters.alertsIntervalMs }),
      },
      retention: {
        days: config.retention.days,
        batchSize: config.retention.batchSize,
        intervalSeconds: config.retention.intervalSeconds,
      },
      http: {
        corsOrigins: config.corsOrigins,
        openApi: { hostOperations: SERVER_OPERATIONS },
      },
    },
    adapters: {
      logger,
      ...(adapters.now ? { now: adapters.now } : {}),
      limiter: rateLimiter(config, store, logger),
      resolveHost,
      webhook: createFetchWebhookSend(),
      mailer: adapters.mailer,
      userAgent: alertsUserAgent(),
      sourceMapResolver: adapters.sourceMapResolver,
      ...(adapters.projector ? { projector: adapters.projector } : {}),
    },
  }
}
