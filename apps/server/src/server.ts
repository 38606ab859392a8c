import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import {
  type AnalyticsOutbox,
  type BootstrapResult,
  bootstrapAdmin,
  createEngine,
  createSourceMapResolver,
  type Engine,
  type Projector,
} from '@tis/ingest'
import type { PostgresIngestStore } from '@tis/storage-postgres'
import { createSmtpMailer, type SmtpSettings } from './alerts-mailer'
import { type AnalyticsRuntime, createAnalyticsRuntime } from './analytics'
import { createApp, type TisApp } from './app'
import { type ServerConfig, secureCookies } from './config'
import { engineOptions } from './engine-options'
import { createLogger, type Logger } from './logger'
import { startProjectionThread } from './projection-thread'
import { type InjectedStore, serverStore } from './store'

/** Options of {@link createServer} beyond the configuration. */
export interface CreateServerOptions {
  /** @default a JSON-lines logger at `config.logLevel` on stdout */
  readonly logger?: Logger
  /**
   * The `{base_url}` for the OpenAPI document's `servers`, and the scheme `SERVICE_COOKIE_SECURE=auto`
   * follows. @default config.publicUrl (`SERVICE_PUBLIC_URL`)
   */
  readonly publicUrl?: string
  /**
   * A store to use instead of opening `config.database` (tests that query the database directly).
   * Its batches are written one at a time; `close()` closes it. Given as a function, it is made
   * with the server's projection enricher (source-map resolution), as an opened store is.
   */
  readonly store?: InjectedStore
  /** The analytics outbox of an injected `store` (queue it was created with). */
  readonly outbox?: AnalyticsOutbox
  /**
   * How long `close()` waits for in-flight requests before cutting connections, in ms.
   * @default 10000
   */
  readonly shutdownTimeoutMs?: number
  /**
   * The engine's clock (tests move it forward to expire mobile tokens and dashboard sessions).
   * @default () => new Date()
   */
  readonly now?: () => Date
  /** Pacing of the in-process analytics drainer, in ms (tests shorten it). @default 1000 */
  readonly analyticsDrainIntervalMs?: number
  /**
   * The SMTP settings of alert emails. @default the configuration's (`config.alerts.smtp`), or
   * none (email attempts fail and are retried)
   */
  readonly smtp?: SmtpSettings | null
  /** Pacing of the alerts worker, in ms (tests shorten it). @default 1000 */
  readonly alertsIntervalMs?: number
  /**
   * The script of the projection thread (`SERVICE_PROJECTION_THREAD`): an entry point that runs
   * `runProjectionThread()` when `isProjectionThread()`, as the server's `main` does (it passes
   * itself). @default none: the projection runs on the request thread
   */
  readonly projectionThread?: string | URL
}

/** Where a listening server can be reached. */
export interface ListeningAddress {
  readonly port: number
  /** `http://localhost:PORT` when bound to every interface, else `http://HOST:PORT`. */
  readonly url: string
}

/** A composed tis server: the app, its engine and store, and its lifecycle. */
export interface TisServer {
  readonly app: TisApp
  /** Every API over the store, and the background work behind them (`createEngine`). */
  readonly engine: Engine
  readonly store: PostgresIngestStore
  readonly logger: Logger
  /** The optional analytics store: readiness, metrics and the background drainer. */
  readonly analytics: AnalyticsRuntime
  /** What the first-run bootstrap did at start. */
  readonly bootstrap: BootstrapResult
  /**
   * Where the projection runs: in a worker thread of the server, on its request thread, or only
   * in `tis worker` processes (`SERVICE_PROJECTION`, `SERVICE_PROJECTION_THREAD`).
   */
  readonly projection: 'thread' | 'request thread' | 'workers'
  /** Starts listening on `config.host:config.port` (port 0 picks a free one). */
  listen(): Promise<ListeningAddress>
  /**
   * Graceful stop: stops accepting connections, lets in-flight requests finish, flushes accepted
   * records and stops the engine's background work (`engine.stop()`), then closes the store. Safe to call more than once.
   */
  close(): Promise<void>
}

function displayUrl(host: string, port: number): string {
  const any = host === '0.0.0.0' || host === '::' || host === ''
  const name = any ? 'localhost' : host.includes(':') ? `[${host}]` : host
  return `http://${name}:${port}`
}

/** Most time a client may take to send its request headers, in ms (or the request timeout). */
const HEADERS_TIMEOUT_MS = 10_000

/**
 * Node's limits on slow clients (slowloris): a connection that has not sent its headers within
 * 10 s, or its whole request within `SERVICE_REQUEST_TIMEOUT_SECONDS`, is answered 408 and
 * closed. Node checks them every `connectionsCheckingInterval` (30 s by default, which would
 * let a slow connection live far past its timeout), so it checks every second here.
 */
export function requestTimeouts(requestTimeoutSeconds: number) {
  const requestTimeout = requestTimeoutSeconds * 1000
  return {
    requestTimeout,
    headersTimeout: Math.min(HEADERS_TIMEOUT_MS, requestTimeout),
    connectionsCheckingInterval: Math.min(1_000, requestTimeout),
  }
}

/** The projector of a server that projects in a worker thread, if it does. */
function projectionThread(
  config: ServerConfig,
  options: CreateServerOptions,
  logger: Logger,
): Projector | undefined {
  const { database, projection } = config
  const script = options.projectionThread
  if (!script || options.store || database.kind !== 'postgres') return undefined
  if (projection.mode !== 'server' || !projection.thread) return undefined
  return startProjectionThread({
    script,
    logger,
    settings: {
      url: database.url,
      analytics: config.analytics.enabled,
      roundSize: projection.batchSize,
      sourceMapCacheBytes: config.sourceMaps.cacheBytes,
    },
  })
}

/**
 * Composes the server: opens and migrates the store, makes sure an administrator exists
 * (`bootstrapAdmin`), creates the engine (`createEngine`) and the HTTP app. Nothing listens until `listen()`.
 */
export async function createServer(
  config: ServerConfig,
  options: CreateServerOptions = {},
): Promise<TisServer> {
  const logger = options.logger ?? createLogger({ level: config.logLevel })
  // One per process: the projection resolves frames with it, the read API too, sharing its cache.
  const sourceMapResolver = createSourceMapResolver({ cacheBytes: config.sourceMaps.cacheBytes })
  const opened = await serverStore(config, options, sourceMapResolver.enrich)
  const { store } = opened
  let bootstrap: BootstrapResult
  try {
    bootstrap = await bootstrapAdmin(store, {
      adminEmails: config.adminEmails,
      bootstrapToken: config.bootstrapToken,
    })
  } catch (error) {
    await store.close()
    throw error
  }
  const analytics = createAnalyticsRuntime({
    config: config.analytics,
    outbox: opened.outbox,
    logger,
    retention: config.retention,
    ...(options.analyticsDrainIntervalMs === undefined
      ? {}
      : { drainIntervalMs: options.analyticsDrainIntervalMs }),
  })
  if (analytics.enabled) {
    // The service works without ClickHouse: a failed migration is logged and retried by the
    // drainer before its first export.
    await analytics.migrate().catch((error: unknown) =>
      logger.warn('analytics store migration failed; retrying before the first export', {
        error: error instanceof Error ? error.message : String(error),
      }),
    )
    if (config.analytics.drain) analytics.startDrainer()
  } else if (config.analytics.enabled) {
    logger.warn('SERVICE_ANALYTICS_ENABLED is set, but this store has no analytics outbox')
  }
  const smtp = options.smtp !== undefined ? options.smtp : config.alerts.smtp
  const mailer = smtp ? createSmtpMailer(smtp) : null
  const publicUrl = options.publicUrl ?? config.publicUrl
  const projector = projectionThread(config, options, logger)
  if (projector) {
    // The log's partitions exist before the first request, as when this thread projects (the
    // projection thread takes over their upkeep once it runs).
    await store.maintainLog(new Date()).catch((error: unknown) =>
      logger.warn('could not create the ingest log partitions; the projection thread will', {
        error: error instanceof Error ? error.message : String(error),
      }),
    )
  }
  const engine = createEngine(
    engineOptions(publicUrl === config.publicUrl ? config : { ...config, publicUrl }, {
      store,
      logger,
      batch: opened.batch,
      now: options.now,
      sourceMapResolver,
      mailer,
      alertsIntervalMs: options.alertsIntervalMs,
      projector,
    }),
  )
  engine.start()
  const app = createApp({
    engine,
    logger,
    analytics,
    trustedProxies: config.trustedProxies,
    ...(publicUrl ? { publicUrl } : {}),
    secureCookies: secureCookies(config.cookieSecure, publicUrl),
  })

  let http: Server | undefined
  let closing: Promise<void> | undefined

  async function stop() {
    if (http) {
      const server = http
      const force = setTimeout(
        () => server.closeAllConnections(),
        options.shutdownTimeoutMs ?? 10_000,
      )
      await new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeIdleConnections()
      })
      clearTimeout(force)
    }
    await engine.stop()
    mailer?.close()
    await analytics.close()
    await store.close()
  }

  return {
    app,
    engine,
    store,
    logger,
    analytics,
    bootstrap,
    projection: projector
      ? 'thread'
      : config.projection.mode === 'worker'
        ? 'workers'
        : 'request thread',
    listen() {
      if (http) throw new Error('the server is already listening')
      return new Promise((resolve, reject) => {
        const server = serve(
          {
            fetch: app.fetch,
            port: config.port,
            hostname: config.host,
            serverOptions: requestTimeouts(config.requestTimeoutSeconds),
          },
          (info: AddressInfo) =>
            resolve({ port: info.port, url: displayUrl(config.host, info.port) }),
        ) as Server
        server.once('error', reject)
        http = server
      })
    },
    close() {
      closing ??= stop()
      return closing
    },
  }
}
