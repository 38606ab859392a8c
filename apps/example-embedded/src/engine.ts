import {
  type BootstrapResult,
  bootstrapAdmin,
  createIngestEngine,
  createMemoryRateLimiter,
  type IngestEngine,
  type RateLimitSettings,
} from '@tis/ingest'
import { openPgliteStore } from '@tis/storage-postgres'

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
 * sure the administrator exists (`bootstrap` holds a first-run token), and creates the engine. `close()` flushes, then closes the store.
 */
export async function openEngine(
  options: OpenEngineOptions = {},
): Promise<{ engine: IngestEngine; bootstrap: BootstrapResult; close(): Promise<void> }> {
  const store = await openPgliteStore(options.dataDir)
  const adminEmails = options.adminEmails ?? []
  const bootstrap = await bootstrapAdmin(store, { adminEmails, bootstrapToken: options.adminToken })
  const engine = createIngestEngine({
    store,
    adminEmails,
    // One process owns a PGlite database, so in-process counting is exact (as the server does).
    limiter: createMemoryRateLimiter(),
    ...(options.rateLimits ? { rateLimits: options.rateLimits } : {}),
  })
  return {
    engine,
    bootstrap,
    async close() {
      await engine.close()
      await store.close()
    },
  }
}
