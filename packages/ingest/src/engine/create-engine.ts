import { createAccountApi } from '../account/api'
import { createAlertsApi } from '../alerts/config-api'
import { checkAlertTarget } from '../alerts/targets'
import { createHttpHandler, type HttpHandlerOptions } from '../http/handle'
import { engineOpenApiDocument } from '../http/openapi'
import { createIngestApi } from '../ingest/api'
import { createProjectAccess } from '../management/access'
import { createManagementApi } from '../management/api'
import { createReadinessCheck } from '../readiness'
import { createReadApi } from '../reads/api'
import { createSharedRateLimiter } from '../shared-rate-limit'
import { createSourceExcerpts } from '../source/excerpts'
import { createSourceSettingsApi } from '../source/settings-api'
import { createSourceMapsApi } from '../sourcemaps/upload-api'
import { chunkBodyCap, DEFAULT_SOURCE_MAP_LIMITS } from '../sourcemaps/upload-limits'
import { createAlertsWorker } from './alerts-worker'
import { createProjectionRuntime } from './projection'
import { createRetentionWorker } from './retention-worker'
import type { Engine, EngineConfig, EngineOptions } from './types'

/** The caps, CORS origins and OpenAPI document of the engine's HTTP handler. */
function httpOptions(config: EngineConfig): HttpHandlerOptions {
  const openApi = config.http?.openApi ?? {}
  const maxBatch = config.batchLimits?.maxBodyBytes
  return {
    ...(config.maxBodyBytes === undefined ? {} : { maxBodyBytes: config.maxBodyBytes }),
    ...(maxBatch === undefined ? {} : { maxBatchBodyBytes: maxBatch }),
    maxChunkBodyBytes: chunkBodyCap({ ...DEFAULT_SOURCE_MAP_LIMITS, ...config.sourceMaps }),
    corsOrigins: config.http?.corsOrigins ?? ['*'],
    ...(openApi === false
      ? {}
      : {
          // Built on the first request for it: most engines (tests, workers) never serve it.
          openApi: () =>
            JSON.stringify(
              engineOpenApiDocument({
                ...(config.publicUrl ? { publicUrl: config.publicUrl } : {}),
                ...(openApi.hostOperations ? { hostOperations: openApi.hostOperations } : {}),
              }),
            ),
        }),
  }
}

/**
 * The engine: every API of tis over one store, each factory given only the ports and settings
 * it needs, and the background work behind them (the projector of the ingest log, the alerts
 * worker, the retention passes) started by `start()` and stopped by `stop()`. Every record is
 * acknowledged on the ingest log and projected behind it, in the server, the embedded example
 * and the tests alike. Nothing runs until `start()`.
 */
export function createEngine(options: EngineOptions): Engine {
  const { store } = options
  const config = options.config ?? {}
  const adapters = options.adapters ?? {}
  const { logger } = adapters
  const now = adapters.now ?? (() => new Date())
  const clock = { now }
  const publicUrl = config.publicUrl ? { publicUrl: config.publicUrl } : {}
  const projection = createProjectionRuntime(
    store,
    config.projection ?? {},
    logger,
    adapters.projector,
  )
  const barrier = { barrier: projection.barrier }
  const acceptance = { append: projection.accept }
  const resolve = adapters.resolveHost ? { resolve: adapters.resolveHost } : {}
  const allowPrivateTargets = config.alerts?.allowPrivateTargets ?? false
  const access = createProjectAccess({ store, adminEmails: config.adminEmails ?? [] })

  const ingest = createIngestApi({
    acceptance,
    credentials: store,
    mobileTokens: store,
    limiter:
      adapters.limiter ??
      createSharedRateLimiter(store, {
        onPruneError: (error) =>
          logger?.warn('pruning rate-limit windows failed', { error: String(error) }),
      }),
    ...(config.serviceEnvironment ? { serviceEnvironment: config.serviceEnvironment } : {}),
    ...(config.rateLimits ? { rateLimits: config.rateLimits } : {}),
    ...(config.batch ? { batch: config.batch } : {}),
    ...(config.credentialCacheMs === undefined
      ? {}
      : { credentialCacheMs: config.credentialCacheMs }),
    ...(config.batchLimits ? { batchLimits: config.batchLimits } : {}),
    // A compressed single-record body is capped at the request cap once decompressed, too.
    ...(config.maxBodyBytes ? { maxBodyBytes: config.maxBodyBytes } : {}),
    ...(logger ? { logger } : {}),
    ...clock,
  })
  const excerpts = createSourceExcerpts({
    ...config.sources,
    ...(logger ? { logger } : {}),
    store,
    ...clock,
  })
  const retentionConfig = config.retention ?? {}
  const defaultDays = retentionConfig.days ?? 90
  const alertsConfig = config.alerts ?? {}
  const mailer = adapters.mailer ?? null

  const alertsWorker = createAlertsWorker({
    store,
    logger,
    now,
    intervalMs: alertsConfig.intervalMs ?? 1_000,
    leaseMs: alertsConfig.leaseMs ?? 60_000,
    webhook: adapters.webhook,
    mailer,
    userAgent: adapters.userAgent ?? 'tis-alerts',
    // Checked again at send time with the host resolved again, so a name since pointed at a
    // private address (DNS rebinding) is refused rather than posted to.
    async allowTarget(url) {
      const check = await checkAlertTarget('url', url, { allowPrivateTargets, ...resolve })
      return check.ok ? null : check.error
    },
  })
  const retentionWorker = createRetentionWorker({
    store,
    logger,
    now,
    defaultDays,
    batchSize: retentionConfig.batchSize ?? 2_000,
    intervalMs: (retentionConfig.intervalSeconds ?? 3_600) * 1_000,
    firstDelayMs: retentionConfig.firstDelayMs ?? 60_000,
  })
  const workers = {
    projector: projection.projector !== undefined,
    alerts: alertsConfig.worker ?? true,
    retention: (retentionConfig.intervalSeconds ?? 3_600) > 0,
  }
  let stopping: Promise<void> | undefined

  const apis = {
    ingest,
    management: createManagementApi({
      store,
      access,
      ...(config.rateLimits ? { rateLimits: config.rateLimits } : {}),
      ...publicUrl,
      onCredentialsChanged: () => ingest.forgetCredentials(),
      retention: { store, defaultDays, ...barrier },
      ...clock,
    }),
    reads: createReadApi({
      store,
      access,
      sources: excerpts,
      ...(adapters.sourceMapResolver
        ? { sourceMaps: { resolver: adapters.sourceMapResolver, lookup: store } }
        : {}),
      ...barrier,
      ...clock,
    }),
    sourceSettings: createSourceSettingsApi({ store, access, excerpts, ...clock }),
    account: createAccountApi({
      store,
      access,
      ...(config.sessions ? { settings: config.sessions } : {}),
      ...clock,
    }),
    alerts: createAlertsApi({
      store,
      access,
      allowPrivateTargets,
      emailConfigured: mailer !== null,
      ...resolve,
      ...clock,
    }),
    sourceMaps: createSourceMapsApi({
      store,
      access,
      // A Sentry deploy is accepted like `POST /api/v1/deployments`: through the ingest log.
      deployments: acceptance,
      ...publicUrl,
      ...(config.sourceMaps ? { limits: config.sourceMaps } : {}),
      ...clock,
    }),
    readiness: projection.readiness(
      createReadinessCheck({
        ...config.readiness,
        ping: () => store.ping(),
        onUnready: (error) =>
          logger?.warn('the store failed its readiness ping', { error: String(error) }),
      }),
    ),
  }
  return {
    ...apis,
    handle: createHttpHandler(apis, httpOptions(config)),
    barrier: projection.barrier,
    settled: (timeoutMs) => projection.settled(timeoutMs),
    runAlerts: () => alertsWorker.runOnce(),
    runRetention: () => retentionWorker.runOnce(),
    workers,
    start() {
      if (stopping) return
      projection.start()
      if (workers.alerts) alertsWorker.start()
      if (workers.retention) retentionWorker.start()
    },
    flush: () => ingest.flush(),
    stop(stopOptions = {}) {
      stopping ??= (async () => {
        await retentionWorker.stop()
        await ingest.close()
        await projection.stop(stopOptions.drainMs)
        await alertsWorker.stop()
      })()
      return stopping
    },
  }
}
