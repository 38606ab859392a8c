import {
  type BootstrapResult,
  bootstrapAdmin,
  createEngine,
  createMemoryRateLimiter,
  type Engine,
  type RateLimitSettings,
} from '@tis/ingest'
import { openPgliteStore } from '@tis/storage-postgres'

/** The engine this example serves: `createEngine` of @tis/ingest, the server's own. */
export type EmbeddedEngine = Engine

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
 * sure the administrator exists (`bootstrap` holds a first-run token), and starts the engine over
 * it: records are acknowledged on the ingest log and projected in this process, as in the
 * server. `close()` stops the engine (flushing what was accepted), then closes the store.
 */
export async function openEngine(
  options: OpenEngineOptions = {},
): Promise<{ engine: Engine; bootstrap: BootstrapResult; close(): Promise<void> }> {
  const store = await openPgliteStore(options.dataDir)
  const adminEmails = options.adminEmails ?? []
  const bootstrap = await bootstrapAdmin(store, { adminEmails, bootstrapToken: options.adminToken })
  const engine = createEngine({
    store,
    config: {
      adminEmails,
      ...(options.rateLimits ? { rateLimits: options.rateLimits } : {}),
      projection: { embedded: true },
    },
    adapters: {
      // One process owns a PGlite database, so in-process counting is exact (as the server does).
      limiter: createMemoryRateLimiter(),
    },
  })
  engine.start()
  return {
    engine,
    bootstrap,
    async close() {
      await engine.stop()
      await store.close()
    },
  }
}
