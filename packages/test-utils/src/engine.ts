import {
  type BootstrapResult,
  bootstrapAdmin,
  createEngine,
  type Engine,
  type EngineAdapters,
  type EngineConfig,
} from '@tis/ingest'
import { openPgliteStore, type PostgresIngestStore } from '@tis/storage-postgres'

/** The access token of the administrator {@link openAdminTestEngine} makes. */
export const TEST_ADMIN_TOKEN = `tis_user_${'a'.repeat(48)}`

/** The `authorization` header that carries this bearer token. */
export function bearer(token: string): { readonly authorization: string } {
  return { authorization: `Bearer ${token}` }
}

/** Options of {@link openTestEngine}. */
export interface TestEngineOptions {
  readonly config?: EngineConfig
  readonly adapters?: EngineAdapters
  /** Administrators made at open (`bootstrapAdmin`), with this access token. */
  readonly admin?: { readonly emails: readonly string[]; readonly token?: string }
  /**
   * Wraps the store before the engine gets it (to watch what is appended, or to break a port).
   * @default the store itself
   */
  readonly wrap?: (store: PostgresIngestStore) => PostgresIngestStore
}

/** An engine over a fresh in-memory PGlite store, started, and how to close both. */
export interface TestEngine {
  readonly engine: Engine
  readonly store: PostgresIngestStore
  readonly bootstrap: BootstrapResult | undefined
  /** Stops the engine (projecting what is pending) and closes the store. */
  close(): Promise<void>
}

/**
 * The engine's own test harness: `createEngine` over a migrated in-memory PGlite store, every
 * record acknowledged on the ingest log and projected in process, as the server runs it. Reads
 * wait behind the read barrier, so a test reads what it just sent.
 */
export async function openTestEngine(options: TestEngineOptions = {}): Promise<TestEngine> {
  const store = await openPgliteStore(undefined)
  const bootstrap = options.admin
    ? await bootstrapAdmin(store, {
        adminEmails: options.admin.emails,
        bootstrapToken: options.admin.token,
      })
    : undefined
  const engine = createEngine({
    store: options.wrap ? options.wrap(store) : store,
    config: {
      ...(options.admin ? { adminEmails: options.admin.emails } : {}),
      // Background work a test asks for (`runAlerts`, `runRetention`) rather than waits on.
      alerts: { worker: false, ...options.config?.alerts },
      retention: { intervalSeconds: 0, ...options.config?.retention },
      ...options.config,
      projection: { embedded: true, ...options.config?.projection },
    },
    ...(options.adapters ? { adapters: options.adapters } : {}),
  })
  engine.start()
  return {
    engine,
    store,
    bootstrap,
    async close() {
      await engine.stop()
      await store.close()
    },
  }
}

/** A {@link TestEngine} with an administrator ({@link TEST_ADMIN_TOKEN}), who makes users. */
export interface AdminTestEngine extends TestEngine {
  /** Creates a user as the administrator; resolves to the new user's access token. */
  user(email: string): Promise<string>
}

/**
 * {@link openTestEngine} with `admin@example.com` bootstrapped as administrator, whose token is
 * {@link TEST_ADMIN_TOKEN}: the login every engine test that makes users and projects starts from.
 */
export async function openAdminTestEngine(
  options: Omit<TestEngineOptions, 'admin'> = {},
): Promise<AdminTestEngine> {
  const base = await openTestEngine({
    ...options,
    admin: { emails: ['admin@example.com'], token: TEST_ADMIN_TOKEN },
  })
  return {
    ...base,
    async user(email) {
      const res = await base.engine.management.createUser({
        headers: bearer(TEST_ADMIN_TOKEN),
        body: { user: { email } },
      })
      return (res.body as { access_token: string }).access_token
    },
  }
}
