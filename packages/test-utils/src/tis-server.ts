import { type ChildProcess, spawn } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import { existsSync, realpathSync } from 'node:fs'
import { cp, mkdtemp, readdir, readFile, rename, rm } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { sourceBundle } from './server/source-bundle'

// The reference server's entry point, run from its TypeScript sources (bundled once per test
// process, `sourceBundle`) so tests never wait for a build; workspace packages resolve to their
// sources through the `@tis/source` condition.
// Each package is found through its package exports (`<name>/package.json`), not by relative path.
const require = createRequire(import.meta.url)
const packageDir = (name: string) => dirname(require.resolve(`${name}/package.json`))
const SERVER_DIR = packageDir('@tis/server')
const MAIN = join(SERVER_DIR, 'src/main.ts')
const MIGRATIONS = join(packageDir('@tis/storage-postgres'), 'src/migrations/')
// The server's own copy of PGlite: its real path (the version is in it) keys the template cache.
const PGLITE = createRequire(join(SERVER_DIR, 'package.json')).resolve('@electric-sql/pglite')

/** Options of {@link startTisServer}. */
export interface TisServerOptions {
  /**
   * Extra environment variables for the server (see docs/server.md), e.g. a small
   * `SERVICE_PUBLIC_API_RATE_LIMIT_REQUESTS`.
   * @default {}
   */
  readonly env?: Record<string, string>
  /**
   * The administrator's access token (`tis_user_` and at least 16 more characters).
   * @default a fresh random token
   */
  readonly adminToken?: string
  /**
   * How long to wait for the server to listen, in milliseconds.
   * @default 60000
   */
  readonly startTimeoutMs?: number
}

/** A running reference server, from {@link startTisServer}. */
export interface TisServer {
  /** Base URL without a trailing slash, e.g. `http://127.0.0.1:41234`. */
  readonly url: string
  /** The administrator's access token (`Authorization: Bearer …` on the management and read APIs). */
  readonly adminToken: string
  /** Everything the server has written to stdout and stderr so far (JSON log lines). */
  readonly output: () => string
  /**
   * `GET`s a management or read API path (e.g. `/api/v1/projects/<id>/issues`) as the
   * administrator; resolves the parsed JSON body, rejects on any status but 200.
   */
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary response fields
  read(path: string): Promise<any>
  /** Creates a project owned by the administrator and one API key for it. */
  createProjectWithKey(
    name?: string,
    integrationKind?: string,
  ): Promise<{ projectId: string; apiKey: string }>
  /** Stops the server (SIGTERM, then SIGKILL after 5 s) and deletes its data directory. */
  stop(): Promise<void>
}

/**
 * Starts the real tis server (`apps/server/src/main.ts`) as a child process on a free port of
 * 127.0.0.1, with a fresh embedded PGlite database in a temporary directory and a known
 * administrator token. Resolves once it listens.
 */
export async function startTisServer(options: TisServerOptions = {}): Promise<TisServer> {
  const timeoutMs = options.startTimeoutMs ?? 60_000
  const template = await migratedTemplate(timeoutMs)
  const dataDir = await mkdtemp(join(tmpdir(), 'tis-server-'))
  await cp(template, join(dataDir, 'data'), { recursive: true })
  const adminToken = options.adminToken ?? `tis_user_${randomBytes(16).toString('hex')}`
  let server: Launched
  try {
    server = await launch(dataDir, adminToken, options.env ?? {}, timeoutMs)
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true })
    throw error
  }
  const { url } = server
  const stop = async () => {
    await server.stop()
    await rm(dataDir, { recursive: true, force: true })
  }

  async function createProjectWithKey(
    name = `example-${randomBytes(4).toString('hex')}`,
    integrationKind = 'node',
  ) {
    const project = await manage(url, adminToken, '/api/v1/projects', {
      project: { name, integration_kind: integrationKind },
    })
    const projectId = project['project'].id as string
    const key = await manage(url, adminToken, `/api/v1/projects/${projectId}/api_keys`)
    return { projectId, apiKey: key['token'] as string }
  }

  async function read(path: string) {
    const response = await fetch(`${url}${path}`, {
      headers: { Authorization: `Bearer ${adminToken}` },
    })
    const text = await response.text()
    if (response.status !== 200) throw new Error(`GET ${path}: ${response.status} ${text}`)
    return JSON.parse(text)
  }

  return { url, adminToken, output: server.output, read, createProjectWithKey, stop }
}

/** A running child server. */
interface Launched {
  readonly url: string
  readonly output: () => string
  stop(): Promise<void>
}

/** Spawns the server on the PGlite database in `dir/data`; resolves once it listens. */
async function launch(
  dir: string,
  adminToken: string,
  env: Record<string, string>,
  timeoutMs: number,
): Promise<Launched> {
  const child = spawn(process.execPath, [sourceBundle(MAIN)], {
    cwd: dir,
    env: {
      PATH: process.env['PATH'] ?? '',
      PORT: '0',
      HOST: '127.0.0.1',
      SERVICE_DATA_DIR: join(dir, 'data'),
      SERVICE_BOOTSTRAP_ADMIN_TOKEN: adminToken,
      SERVICE_ADMIN_EMAILS: 'admin@tis.test',
      SERVICE_PUBLIC_API_RATE_LIMIT_STORE: 'memory',
      SERVICE_LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout?.on('data', (d: Buffer) => {
    output += d.toString()
  })
  child.stderr?.on('data', (d: Buffer) => {
    output += d.toString()
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  // A test process that ends without stop() (a crashed worker, a hook timeout) takes it along.
  const orphaned = () => child.kill('SIGKILL')
  process.once('exit', orphaned)
  const stop = async () => {
    process.off('exit', orphaned)
    await kill(child, exited)
  }
  try {
    const url = await waitForListening(child, () => output, timeoutMs)
    return { url, output: () => output, stop }
  } catch (error) {
    await stop()
    throw error
  }
}

/**
 * A PGlite data directory with every migration applied, made once per version of PGlite and of
 * the migrations (by starting and stopping the server on it) and copied for each server: reopening a
 * database takes about a second, creating one about five. Copy it; never open it in place.
 */
export async function migratedTemplate(timeoutMs = 60_000): Promise<string> {
  // The installed PGlite (its pnpm path names the version) and the migrations define the files.
  const hash = createHash('sha256').update(realpathSync(PGLITE))
  for (const name of (await readdir(MIGRATIONS)).sort()) {
    hash.update(name).update(await readFile(join(MIGRATIONS, name)))
  }
  const template = join(tmpdir(), `tis-server-template-${hash.digest('hex').slice(0, 16)}`)
  if (existsSync(template)) return join(template, 'data')
  const staging = await mkdtemp(join(tmpdir(), 'tis-server-staging-'))
  try {
    const server = await launch(
      staging,
      `tis_user_${randomBytes(16).toString('hex')}`,
      {},
      timeoutMs,
    )
    await server.stop()
    // Atomic: concurrent test files may race to create it; the first rename wins.
    await rename(staging, template)
  } catch (error) {
    await rm(staging, { recursive: true, force: true })
    if (!existsSync(template)) throw error
  }
  return join(template, 'data')
}

function waitForListening(
  child: ChildProcess,
  output: () => string,
  timeoutMs: number,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => finish(new Error(`tis server did not listen within ${timeoutMs} ms:\n${output()}`)),
      timeoutMs,
    )
    const onData = () => {
      const match = output().match(/"msg":"listening","url":"([^"]+)"/)
      if (match?.[1]) finish(match[1].replace(/\/$/, ''))
    }
    const onExit = () => finish(new Error(`tis server exited before listening:\n${output()}`))
    function finish(result: string | Error) {
      clearTimeout(timer)
      child.stdout?.off('data', onData)
      child.off('exit', onExit)
      if (typeof result === 'string') resolve(result)
      else reject(result)
    }
    // Registered after the collector, so `output()` already holds the new chunk.
    child.stdout?.on('data', onData)
    child.once('exit', onExit)
  })
}

async function kill(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  child.kill('SIGTERM')
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000)
  await exited
  clearTimeout(timer)
}

// biome-ignore lint/suspicious/noExplicitAny: management API replies are read field by field
async function manage(url: string, token: string, path: string, json?: unknown): Promise<any> {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    ...(json === undefined ? {} : { body: JSON.stringify(json) }),
  })
  const text = await response.text()
  if (response.status !== 201) throw new Error(`POST ${path}: ${response.status} ${text}`)
  return JSON.parse(text)
}
