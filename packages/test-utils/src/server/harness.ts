import { randomBytes } from 'node:crypto'
import { PGlite } from '@electric-sql/pglite'
import type { ProjectionEnricher } from '@tis/ingest'
import { createServer, loadConfig, type TisServer } from '@tis/server'
import { createPgliteStore } from '@tis/storage-postgres'
import postgres from 'postgres'
import { sourceBundle } from './source-bundle'
import { APP_DIR } from './spawn'

/** The administrator every end-to-end server bootstraps (`SERVICE_BOOTSTRAP_ADMIN_TOKEN`). */
export const ADMIN_EMAIL = 'admin@tis.test'
/** The administrator's access token. */
export const ADMIN_TOKEN = `tis_user_${randomBytes(16).toString('hex')}`

/**
 * The environment of a server process a test starts (`startServerProcess`): a free port on the
 * loopback, logs at `info` (tests wait for the `listening` line), the bootstrap administrator, and
 * a public-API cap no load test reaches.
 */
export const SPAWNED_SERVER_ENV = {
  PORT: '0',
  HOST: '127.0.0.1',
  SERVICE_LOG_LEVEL: 'info',
  SERVICE_ADMIN_EMAILS: ADMIN_EMAIL,
  SERVICE_BOOTSTRAP_ADMIN_TOKEN: ADMIN_TOKEN,
  SERVICE_PUBLIC_API_RATE_LIMIT_REQUESTS: '1000000',
} as const

/**
 * Configuration of the suites' servers. Small caps make the 429 and 413 paths cheap to reach;
 * the hour-long window keeps a fixed window from rolling over mid-test. Tests come through the
 * trusted loopback proxy with a fresh `X-Forwarded-For` each, so the per-IP failure cap only
 * bites the test that aims at it.
 */
export const SUITE_ENV = {
  PORT: '0',
  HOST: '127.0.0.1',
  SERVICE_LOG_LEVEL: 'silent',
  SERVICE_ENV: 'e2e',
  SERVICE_ADMIN_EMAILS: ADMIN_EMAIL,
  SERVICE_BOOTSTRAP_ADMIN_TOKEN: ADMIN_TOKEN,
  SERVICE_PUBLIC_API_RATE_LIMIT_REQUESTS: '25',
  SERVICE_PUBLIC_API_RATE_LIMIT_PERIOD_SECONDS: '3600',
  SERVICE_PUBLIC_API_AUTH_FAILURE_RATE_LIMIT_REQUESTS: '5',
  SERVICE_MAX_BODY_BYTES: '65536',
  SERVICE_TRUSTED_PROXIES: '127.0.0.1',
  // No alerts worker: suites send check-ins dated months ago, whose missed deadlines the
  // scheduler would write into the histories they read, racing them. Tests of alerts turn it on
  // (with private targets, for their receivers on loopback): ALERTS_TEST_ENV.
  SERVICE_ALERTS_WORKER: 'false',
  // No retention passes: suites send records dated months or years ago (fuzzing, extremes), and
  // a pass a minute into a long suite would delete them under the reads that count them. Tests
  // of retention turn it on: RETENTION_TEST_ENV.
  SERVICE_RETENTION_DAYS: '0',
} as const

/** What a test of retention adds to {@link SUITE_ENV}: the default period of 90 days. */
export const RETENTION_TEST_ENV = { SERVICE_RETENTION_DAYS: '90' } as const

/** What a test of alert delivery adds to {@link SUITE_ENV}: the worker, loopback receivers. */
export const ALERTS_TEST_ENV = {
  SERVICE_ALERTS_WORKER: 'true',
  SERVICE_ALERTS_ALLOW_PRIVATE_TARGETS: 'true',
} as const

/** A listening server and direct SQL access to its database. */
export interface Harness {
  /** Base URL, e.g. `http://127.0.0.1:41234`. */
  readonly url: string
  /** The server's `DATABASE_URL` (PostgreSQL only): for other processes on the same data. */
  readonly databaseUrl?: string
  readonly server: TisServer
  /**
   * Runs SQL on the server's database, after the projection has passed everything acknowledged
   * so far (the read barrier the read API uses, without its bound).
   */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>
  /** Moves the server's clock forward (expiry of mobile tokens). */
  advance(seconds: number): void
  /** The server's clock: real time plus every {@link Harness.advance} so far. */
  now(): Date
  close(): Promise<void>
}

/** A clock that runs with real time plus an offset the test can add to. */
function testClock() {
  let offsetMs = 0
  return {
    now: () => new Date(Date.now() + offsetMs),
    advance(seconds: number) {
      offsetMs += seconds * 1000
    },
  }
}

async function listen(server: TisServer) {
  try {
    return (await server.listen()).url
  } catch (error) {
    await server.close()
    throw error
  }
}

/**
 * A server on an in-memory PGlite database. The store is injected so the test keeps a handle on
 * the database; everything else goes through `loadConfig` as in production.
 */
export async function startPgliteHarness(env: Record<string, string> = {}): Promise<Harness> {
  const db = await PGlite.create()
  await createPgliteStore(db).migrate()
  const config = loadConfig({ ...SUITE_ENV, ...env })
  const clock = testClock()
  // Made with the server's projection enricher (source maps), as the server opens its own.
  const store = ({ enrich }: { enrich: ProjectionEnricher }) => createPgliteStore(db, { enrich })
  const server = await createServer(config, { store, now: clock.now })
  const url = await listen(server)
  return {
    url,
    server,
    advance: clock.advance,
    now: clock.now,
    query: async <T>(sql: string, params: unknown[] = []) => {
      await server.engine.settled()
      return (await db.query<T>(sql, params)).rows
    },
    async close() {
      await server.close()
      await db.close()
    },
  }
}

/**
 * A server on real PostgreSQL through `DATABASE_URL`, in a schema of its own (selected with the
 * URL's `search_path` parameter), dropped again by `close()`.
 */
export async function startPostgresHarness(
  baseUrl: string,
  env: Record<string, string> = {},
): Promise<Harness> {
  const schema = `tis_server_${randomBytes(6).toString('hex')}`
  const admin = postgres(baseUrl, { max: 1, onnotice: () => {} })
  await admin.unsafe(`create schema ${schema}`)
  const url = new URL(baseUrl)
  url.searchParams.set('search_path', schema)
  const sql = postgres(url.toString(), { max: 2, onnotice: () => {} })
  const config = loadConfig({ ...SUITE_ENV, ...env, DATABASE_URL: url.toString() })
  const clock = testClock()
  // As `node dist/main.js` does: the projection in a worker thread (SERVICE_PROJECTION_THREAD).
  const projectionThread = sourceBundle(`${APP_DIR}/src/main.ts`)
  const server = await createServer(config, { now: clock.now, projectionThread })
  const base = await listen(server)
  return {
    url: base,
    databaseUrl: url.toString(),
    server,
    advance: clock.advance,
    now: clock.now,
    query: async <T>(text: string, params: unknown[] = []) => {
      await server.engine.settled()
      return (await sql.unsafe(text, params as postgres.ParameterOrJSON<never>[])) as unknown as T[]
    },
    async close() {
      await server.close()
      await sql.end()
      await admin.unsafe(`drop schema ${schema} cascade`)
      await admin.end()
    },
  }
}
