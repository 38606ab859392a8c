import { resolve } from 'node:path'
import type { BatchLimits, RateLimitSettings, SourceMapLimits } from '@tis/ingest'
import type { DatabaseConfig } from './config-database'
import {
  CONFIG_VARIABLES,
  type ConfigVariableName,
  configEnvSchema,
  type ParsedEnvironment,
} from './config-schema'
import type { RATE_LIMIT_STORES } from './config-variables-limits'
import type { COOKIE_SECURE_MODES } from './config-variables-web'
import type { LogLevel } from './logger'

export type { DatabaseConfig } from './config-database'

/** Where request counts live (`SERVICE_PUBLIC_API_RATE_LIMIT_STORE`). */
export type RateLimitStoreKind = (typeof RATE_LIMIT_STORES)[number]

/** `SERVICE_COOKIE_SECURE`: `auto` follows the public URL's scheme. */
export type CookieSecureMode = (typeof COOKIE_SECURE_MODES)[number]

/**
 * Whether the dashboard marks its cookies `Secure`: always with `true`, never with `false`, and
 * with `auto` exactly when the public URL is https (a server that does not know its public URL
 * cannot tell that browsers reach it over TLS).
 */
export function secureCookies(mode: CookieSecureMode, publicUrl: string | undefined): boolean {
  if (mode !== 'auto') return mode === 'true'
  return publicUrl?.toLowerCase().startsWith('https:') ?? false
}

/** Settings of the optional analytics store. */
export interface AnalyticsConfig {
  readonly enabled: boolean
  readonly url: string | undefined
  readonly database: string
  readonly eventsTable: string
  readonly spansTable: string
  /** `SERVICE_ANALYTICS_SESSIONS_TABLE`: release health per minute. */
  readonly sessionsTable: string
  readonly username: string
  readonly password: string
  readonly failureThrottleSeconds: number
  /** `SERVICE_ANALYTICS_DRAIN`: export from the server process. */
  readonly drain: boolean
}

/** The server's configuration: everything `createServer` needs. */
export interface ServerConfig {
  readonly port: number
  readonly host: string
  readonly database: DatabaseConfig
  /** `SERVICE_ENV`: the default environment of check-ins. */
  readonly serviceEnvironment: string
  readonly adminEmails: readonly string[]
  readonly bootstrapToken: string | undefined
  readonly rateLimits: RateLimitSettings
  /** `SERVICE_PUBLIC_API_RATE_LIMIT_STORE`: where request counts live. */
  readonly rateLimitStore: RateLimitStoreKind
  readonly maxBodyBytes: number
  /** `SERVICE_BATCH_MAX_*`: the caps of `POST /api/v1/ingest_events/batch`. */
  readonly batchLimits: BatchLimits
  /** `SERVICE_REQUEST_TIMEOUT_SECONDS`: time allowed to receive a whole request. */
  readonly requestTimeoutSeconds: number
  /** Peers whose `X-Forwarded-For` is trusted; `['*']` trusts every peer, `[]` none. */
  readonly trustedProxies: readonly string[]
  /** `SERVICE_CORS_ORIGINS`: origins whose pages may call the ingest endpoints; `['*']` is any. */
  readonly corsOrigins: readonly string[]
  /** `SERVICE_PUBLIC_URL`: where people and clients reach the server, without a trailing slash. */
  readonly publicUrl: string | undefined
  /** `SERVICE_COOKIE_SECURE`: whether the dashboard's cookies are `Secure` (see {@link secureCookies}). */
  readonly cookieSecure: CookieSecureMode
  /** `SERVICE_SESSION_IDLE_SECONDS` and `SERVICE_SESSION_MAX_AGE_SECONDS`. */
  readonly sessions: { readonly idleSeconds: number; readonly maxAgeSeconds: number }
  readonly logLevel: LogLevel
  /** `SERVICE_PROJECTION*` and `SERVICE_READ_BARRIER_MS`: the projection behind the ingest log. */
  readonly projection: ProjectionConfig
  readonly analytics: AnalyticsConfig
  /** Source excerpts (docs/source-excerpts.md): the secret key, the server-wide GitHub access. */
  readonly sources: SourcesConfig
  /** `SERVICE_SOURCEMAPS_*`: the caps of the source-map upload API and the parsed-map cache. */
  readonly sourceMaps: SourceMapLimits & {
    /** Bound of the parsed-map cache, in bytes of map files. */
    readonly cacheBytes: number
  }
  /** Alerts: private targets and the SMTP server of email channels. */
  readonly alerts: AlertsConfig
  /** Retention: `SERVICE_RETENTION_*` and the analytics store's periods. */
  readonly retention: RetentionConfig
}

/** How long telemetry is kept (`SERVICE_RETENTION_*`); 0 days keeps it forever. */
export interface RetentionConfig {
  /** `SERVICE_RETENTION_DAYS`: the default of projects without their own period. */
  readonly days: number
  readonly intervalSeconds: number
  readonly batchSize: number
  /** `SERVICE_ANALYTICS_RETENTION_DAYS` (defaults to `days`): the raw analytics tables. */
  readonly analyticsDays: number
  /** `SERVICE_ANALYTICS_ROLLUP_RETENTION_DAYS`: the analytics rollups. */
  readonly analyticsRollupDays: number
}

/** The SMTP server of email channels (`SERVICE_SMTP_*`). */
export interface SmtpConfig {
  readonly host: string
  readonly port: number
  /** Implicit TLS (SMTPS); defaults to `port === 465`. */
  readonly secure: boolean
  readonly user: string | undefined
  /** A secret: never logged. */
  readonly password: string | undefined
  readonly from: string
}

/** `SERVICE_ALERTS_*` and `SERVICE_SMTP_*`. */
export interface AlertsConfig {
  readonly allowPrivateTargets: boolean
  /** `SERVICE_ALERTS_WORKER`: run the alerts worker (deliveries, missed deadlines) here. */
  readonly worker: boolean
  /** `SERVICE_ALERTS_LEASE_SECONDS`: how long a claimed delivery is reserved for its sender. */
  readonly leaseSeconds: number
  /** `null` when `SERVICE_SMTP_HOST` is unset: email channels cannot be created. */
  readonly smtp: SmtpConfig | null
}

/** Where and how records acknowledged on the ingest log are projected into the read model. */
export interface ProjectionConfig {
  /** `server`: in this process (`thread`: in a worker thread on PostgreSQL); `worker`: `tis worker`s only. */
  readonly mode: 'server' | 'worker'
  readonly thread: boolean
  readonly batchSize: number
  readonly readBarrierMs: number
  readonly maxLagSeconds: number
}

/** `SERVICE_SECRET_KEY`, `SERVICE_GITHUB_TOKEN`, `SERVICE_GITHUB_API_URL`. */
export interface SourcesConfig {
  readonly secretKey: string | undefined
  readonly githubToken: string | undefined
  readonly githubApiUrl: string
}

/** A configuration variable is invalid. The message names it; it never contains a secret. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError'
  /** One `NAME: problem` line per invalid variable. */
  readonly problems: readonly string[]

  constructor(problems: readonly string[]) {
    super(`invalid configuration:\n  ${problems.join('\n  ')}`)
    this.problems = problems
  }

  /** True for a `ConfigError` (name-based, so it survives duplicate module copies). */
  static is(error: unknown): error is ConfigError {
    return error instanceof Error && error.name === 'ConfigError'
  }
}

/** The directory value that keeps PGlite in memory. */
export const IN_MEMORY_DATA_DIR = ':memory:'

/**
 * Reads and validates the configuration from environment variables, applying defaults. Relative
 * paths resolve against `cwd`.
 * @throws {ConfigError} naming each invalid variable and its rule
 */
export function loadConfig(
  env: Readonly<Record<string, string | undefined>> = process.env,
  cwd: string = process.cwd(),
): ServerConfig {
  const parsed = configEnvSchema.safeParse(env)
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => {
        const name = String(issue.path[0] ?? 'environment')
        const rule = issue.code === 'invalid_type' ? 'has an invalid value' : issue.message
        return `${name} ${rule}`
      }),
    )
  }
  const e = parsed.data as ParsedEnvironment
  if (e.SERVICE_PROJECTION === 'worker' && !e.DATABASE_URL) {
    throw new ConfigError([
      'SERVICE_PROJECTION=worker needs DATABASE_URL: the embedded database is only open in the server, which must project it itself',
    ])
  }
  return {
    port: e.PORT,
    host: e.HOST,
    database: e.DATABASE_URL
      ? { kind: 'postgres', url: e.DATABASE_URL, textSearchIndex: e.SERVICE_TEXT_SEARCH_INDEX }
      : {
          kind: 'pglite',
          dataDir:
            e.SERVICE_DATA_DIR === IN_MEMORY_DATA_DIR
              ? undefined
              : resolve(cwd, e.SERVICE_DATA_DIR),
          sync: e.SERVICE_EMBEDDED_SYNC,
          sharedBuffers: e.SERVICE_EMBEDDED_SHARED_BUFFERS,
          textSearchIndex: e.SERVICE_TEXT_SEARCH_INDEX,
        },
    serviceEnvironment: e.SERVICE_ENV,
    adminEmails: e.SERVICE_ADMIN_EMAILS.map((email) => email.toLowerCase()),
    bootstrapToken: e.SERVICE_BOOTSTRAP_ADMIN_TOKEN,
    rateLimits: {
      requests: e.SERVICE_PUBLIC_API_RATE_LIMIT_REQUESTS,
      periodSeconds: e.SERVICE_PUBLIC_API_RATE_LIMIT_PERIOD_SECONDS,
      authFailures: e.SERVICE_PUBLIC_API_AUTH_FAILURE_RATE_LIMIT_REQUESTS,
    },
    rateLimitStore: e.SERVICE_PUBLIC_API_RATE_LIMIT_STORE,
    maxBodyBytes: e.SERVICE_MAX_BODY_BYTES,
    batchLimits: {
      maxBodyBytes: e.SERVICE_BATCH_MAX_BODY_BYTES,
      maxDecompressedBytes: e.SERVICE_BATCH_MAX_DECOMPRESSED_BYTES,
      maxLineBytes: e.SERVICE_BATCH_MAX_ENVELOPE_BYTES,
      maxEnvelopes: e.SERVICE_BATCH_MAX_ENVELOPES,
    },
    requestTimeoutSeconds: e.SERVICE_REQUEST_TIMEOUT_SECONDS,
    trustedProxies: e.SERVICE_TRUSTED_PROXIES,
    corsOrigins: e.SERVICE_CORS_ORIGINS,
    publicUrl: e.SERVICE_PUBLIC_URL,
    cookieSecure: e.SERVICE_COOKIE_SECURE,
    sessions: {
      idleSeconds: e.SERVICE_SESSION_IDLE_SECONDS,
      maxAgeSeconds: e.SERVICE_SESSION_MAX_AGE_SECONDS,
    },
    logLevel: e.SERVICE_LOG_LEVEL,
    projection: {
      mode: e.SERVICE_PROJECTION,
      thread: e.SERVICE_PROJECTION_THREAD,
      batchSize: e.SERVICE_PROJECTION_BATCH_SIZE,
      readBarrierMs: e.SERVICE_READ_BARRIER_MS,
      maxLagSeconds: e.SERVICE_PROJECTION_MAX_LAG_SECONDS,
    },
    analytics: {
      enabled: e.SERVICE_ANALYTICS_ENABLED,
      url: e.SERVICE_ANALYTICS_URL,
      database: e.SERVICE_ANALYTICS_DATABASE,
      eventsTable: e.SERVICE_ANALYTICS_EVENTS_TABLE,
      spansTable: e.SERVICE_ANALYTICS_SPANS_TABLE,
      sessionsTable: e.SERVICE_ANALYTICS_SESSIONS_TABLE,
      username: e.SERVICE_ANALYTICS_USERNAME,
      password: e.SERVICE_ANALYTICS_PASSWORD,
      failureThrottleSeconds: e.SERVICE_ANALYTICS_FAILURE_THROTTLE_SECONDS,
      drain: e.SERVICE_ANALYTICS_DRAIN,
    },
    sources: {
      secretKey: e.SERVICE_SECRET_KEY,
      githubToken: e.SERVICE_GITHUB_TOKEN,
      githubApiUrl: e.SERVICE_GITHUB_API_URL,
    },
    sourceMaps: {
      chunkSize: e.SERVICE_SOURCEMAPS_CHUNK_BYTES,
      maxBundleBytes: e.SERVICE_SOURCEMAPS_MAX_BUNDLE_BYTES,
      maxUnpackedBytes: e.SERVICE_SOURCEMAPS_MAX_UNPACKED_BYTES,
      maxFilesPerBundle: e.SERVICE_SOURCEMAPS_MAX_BUNDLE_FILES,
      maxProjectBytes: e.SERVICE_SOURCEMAPS_MAX_PROJECT_BYTES,
      cacheBytes: e.SERVICE_SOURCEMAPS_CACHE_BYTES,
    },
    alerts: {
      allowPrivateTargets: e.SERVICE_ALERTS_ALLOW_PRIVATE_TARGETS,
      worker: e.SERVICE_ALERTS_WORKER,
      leaseSeconds: e.SERVICE_ALERTS_LEASE_SECONDS,
      smtp: e.SERVICE_SMTP_HOST
        ? {
            host: e.SERVICE_SMTP_HOST,
            port: e.SERVICE_SMTP_PORT,
            secure: e.SERVICE_SMTP_SECURE ?? e.SERVICE_SMTP_PORT === 465,
            user: e.SERVICE_SMTP_USER,
            password: e.SERVICE_SMTP_PASSWORD,
            // Required with the host (checked by the schema above).
            from: e.SERVICE_SMTP_FROM ?? '',
          }
        : null,
    },
    retention: {
      days: e.SERVICE_RETENTION_DAYS,
      intervalSeconds: e.SERVICE_RETENTION_INTERVAL_SECONDS,
      batchSize: e.SERVICE_RETENTION_BATCH_SIZE,
      analyticsDays: e.SERVICE_ANALYTICS_RETENTION_DAYS ?? e.SERVICE_RETENTION_DAYS,
      analyticsRollupDays: e.SERVICE_ANALYTICS_ROLLUP_RETENTION_DAYS,
    },
  }
}

/** The names of every configuration variable, for documentation and `--help` output. */
export const CONFIG_VARIABLE_NAMES = Object.keys(CONFIG_VARIABLES) as ConfigVariableName[]
