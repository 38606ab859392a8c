import { type AccountApi, createAccountApi } from './account/api'
import type { SessionSettings } from './account/sessions'
import type { EngineResponse } from './http'
import { createIngestApi, type IngestApi, type IngestApiOptions } from './ingest/api'
import type { EngineLogger } from './logger'
import { createProjectAccess } from './management/access'
import { createManagementApi, type ManagementApi } from './management/api'
import type { IngestStore } from './ports'
import { createMemoryRateLimiter, type RateLimiter } from './rate-limit'
import { createReadinessCheck, type ReadinessOptions } from './readiness'
import { createReadApi, type ReadApi } from './reads/api'
import { createSharedRateLimiter } from './shared-rate-limit'
import { createSourceExcerpts, type SourceExcerptsOptions } from './source/excerpts'
import { createSourceSettingsApi, type SourceSettingsApi } from './source/settings-api'

/** Options of {@link createIngestEngine}: the ingest API's, over one store that has every port. */
export interface IngestEngineOptions
  extends Omit<IngestApiOptions, 'acceptance' | 'credentials' | 'mobileTokens' | 'limiter'> {
  /** The storage adapter: every port at once. The engine does not close it. */
  readonly store: IngestStore
  /**
   * Application administrators (`SERVICE_ADMIN_EMAILS`). When empty, `admin@localhost` — the
   * first-run user — is the administrator.
   * @default []
   */
  readonly adminEmails?: readonly string[]
  /**
   * Counts requests per window.
   * @default createSharedRateLimiter(store) when the store has shared counters, else createMemoryRateLimiter()
   */
  readonly limiter?: RateLimiter
  /** Source excerpts of error events: the code host, tokens and limits. */
  readonly sources?: Omit<SourceExcerptsOptions, 'store' | 'now'>
  /** The readiness check's timeout and caching. */
  readonly readiness?: Pick<ReadinessOptions, 'timeoutMs' | 'cacheMs' | 'retryAfterSeconds'>
  /** Dashboard session lifetimes. */
  readonly sessions?: Partial<SessionSettings>
}

/** Every API over one store: the ingest API's operations plus the other APIs as fields. */
export interface IngestEngine extends IngestApi {
  readonly management: ManagementApi
  readonly reads: ReadApi
  readonly sourceSettings: SourceSettingsApi
  readonly account: AccountApi
  /** `GET /health/ready` (see {@link createReadinessCheck}). */
  readiness(): Promise<EngineResponse>
}

/**
 * A convenience over the factories for tests, tools and embedders that want every API over one
 * store; each factory can be used alone (see docs/embedding.md and `apps/server/src/compose.ts`).
 */
export function createIngestEngine(options: IngestEngineOptions): IngestEngine {
  const { store, logger, now, adminEmails, sources, readiness, sessions, ...ingestOptions } =
    options
  const clock = now ? { now } : {}
  const ingest = createIngestApi({
    ...ingestOptions,
    ...clock,
    ...(logger ? { logger } : {}),
    acceptance: store,
    credentials: store,
    mobileTokens: store,
    limiter: options.limiter ?? defaultLimiter(store, logger),
  })
  const access = createProjectAccess({ store, adminEmails: adminEmails ?? [] })
  const excerpts = createSourceExcerpts({
    ...(logger ? { logger } : {}),
    ...sources,
    store,
    ...clock,
  })
  return {
    ...ingest,
    management: createManagementApi({
      store,
      access,
      ...(options.rateLimits ? { rateLimits: options.rateLimits } : {}),
      onCredentialsChanged: () => ingest.forgetCredentials(),
      ...clock,
    }),
    reads: createReadApi({ store, access, sources: excerpts, ...clock }),
    sourceSettings: createSourceSettingsApi({ store, access, excerpts, ...clock }),
    account: createAccountApi({
      store,
      access,
      ...(sessions ? { settings: sessions } : {}),
      ...clock,
    }),
    readiness: createReadinessCheck({
      ...readiness,
      ...(store.ping ? { ping: store.ping.bind(store) } : {}),
      onUnready: (error) =>
        logger?.warn('the store failed its readiness ping', { error: String(error) }),
    }),
  }
}

function defaultLimiter(store: IngestStore, logger: EngineLogger | undefined): RateLimiter {
  const { incrementWindows, pruneWindows } = store
  if (!incrementWindows || !pruneWindows) return createMemoryRateLimiter()
  return createSharedRateLimiter(
    { incrementWindows: incrementWindows.bind(store), pruneWindows: pruneWindows.bind(store) },
    {
      onPruneError: (error) =>
        logger?.warn('pruning rate-limit windows failed', { error: String(error) }),
    },
  )
}
