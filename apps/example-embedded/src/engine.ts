import {
  type BootstrapResult,
  bootstrapAdmin,
  createIngestApi,
  createManagementApi,
  createMemoryRateLimiter,
  createProjectAccess,
  createReadApi,
  type IngestApi,
  type ManagementApi,
  type RateLimitSettings,
  type ReadApi,
} from '@tis/ingest'
import { openPgliteStore } from '@tis/storage-postgres'
import { zlibInflater } from './inflater'

/** The APIs this example serves: ingestion, plus management and reads for projects and keys. */
export interface EmbeddedEngine {
  readonly ingest: IngestApi
  readonly management: ManagementApi
  readonly reads: Pick<ReadApi, 'listEvents'>
}

/** Options of {@link openEngine}. */
export interface OpenEngineOptions {
  /** PGlite data directory; `undefined` keeps everything in memory. */
  readonly dataDir?: string
  /** Administrator emails (`SERVICE_ADMIN_EMAILS`); the first is created at start. @default [] */
  readonly adminEmails?: readonly string[]
  /** The administrator's access token (`tis_user_…`), as `SERVICE_BOOTSTRAP_ADMIN_TOKEN`. */
  readonly adminToken?: string
  /** Request caps (section 8 of the interface). @default 1200 requests per 60 s */
  readonly rateLimits?: Partial<RateLimitSettings>
}

/**
 * Opens the store the reference server uses without `DATABASE_URL` (PGlite, migrated), makes
 * sure the administrator exists (`bootstrap` holds a first-run token), and composes only the APIs
 * it serves, each from the store's ports it needs. `close()` flushes, then closes the store.
 */
export async function openEngine(
  options: OpenEngineOptions = {},
): Promise<{ engine: EmbeddedEngine; bootstrap: BootstrapResult; close(): Promise<void> }> {
  const store = await openPgliteStore(options.dataDir)
  const adminEmails = options.adminEmails ?? []
  const bootstrap = await bootstrapAdmin(store, { adminEmails, bootstrapToken: options.adminToken })
  const rateLimits = options.rateLimits ? { rateLimits: options.rateLimits } : {}
  const ingest = createIngestApi({
    acceptance: store,
    credentials: store,
    mobileTokens: store,
    // One process owns a PGlite database, so in-process counting is exact (as the server does).
    limiter: createMemoryRateLimiter(),
    inflater: zlibInflater,
    ...rateLimits,
  })
  const access = createProjectAccess({ store, adminEmails })
  const engine: EmbeddedEngine = {
    ingest,
    management: createManagementApi({
      store,
      access,
      ...rateLimits,
      onCredentialsChanged: () => ingest.forgetCredentials(),
    }),
    reads: createReadApi({ store, access }),
  }
  return {
    engine,
    bootstrap,
    async close() {
      await ingest.close()
      await store.close()
    },
  }
}
