import { execFile, spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname } from 'node:path'
import { pathToFileURL } from 'node:url'
import { sourceBundle } from './source-bundle'

const require = createRequire(import.meta.url)

/**
 * The server app's directory (`@tis/server`, found through its package exports): child
 * processes run its TypeScript sources from here through tsx.
 */
export const APP_DIR = dirname(require.resolve('@tis/server/package.json'))

// tsx's loader by absolute URL, so children can run from any working directory.
const TSX = pathToFileURL(require.resolve('tsx')).href

/** Node arguments that run a source file with workspace packages resolved to their sources. */
export const tsNode = (file: string) => ['--conditions=@tis/source', '--import', TSX, file]

/** The outcome of a finished child process. */
export interface Finished {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/**
 * Runs the `tis` CLI from source as a child process: `src/cli.ts` bundled once per test process
 * ({@link sourceBundle}), then `node` on the bundle for each call.
 */
export function runTis(args: readonly string[], env: Record<string, string>): Promise<Finished> {
  const cli = sourceBundle(`${APP_DIR}/src/cli.ts`)
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [cli, ...args],
      { cwd: APP_DIR, env: { PATH: process.env['PATH'] ?? '', ...env }, timeout: 20_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0
        resolve({ code, stdout, stderr })
      },
    )
  })
}

/** A running `node src/main.ts` child and what it has printed so far. */
export interface ServerProcess {
  readonly output: { stdout: string; stderr: string }
  /** Resolves once stdout matches `pattern` (rejects if the process exits first). */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>
  /** Resolves with the exit code (or the signal name) once the process ends. */
  readonly exited: Promise<number | string | null>
  /** The process id (with `group`: the shell's, which is also the process group id). */
  readonly pid: number | undefined
  /** Signals the process, or its whole process group when started with `group`. */
  kill(signal: NodeJS.Signals): void
}

/** Options of {@link startServerProcess}. */
export interface ServerProcessOptions {
  /**
   * Run the server under a shell in a process group of its own, as `pnpm start` does (a parent
   * and the server), and signal the whole group.
   * @default false
   */
  readonly group?: boolean
  /** Run the CLI (`src/cli.ts`) with these arguments instead of the server, e.g. `['worker']`. */
  readonly cli?: readonly string[]
}

/**
 * Starts the server entry point from source with only the given environment: `src/main.ts` (or
 * `src/cli.ts`) bundled once per test process ({@link sourceBundle}).
 */
export function startServerProcess(
  env: Record<string, string>,
  cwd: string,
  options: ServerProcessOptions = {},
): ServerProcess {
  const args = options.cli
    ? [sourceBundle(`${APP_DIR}/src/cli.ts`), ...options.cli]
    : [sourceBundle(`${APP_DIR}/src/main.ts`)]
  const quote = (arg: string) => `'${arg.replaceAll("'", `'\\''`)}'`
  const child = options.group
    ? // No `exec`: the shell stays the group's leader with the server as its child.
      spawn('/bin/sh', ['-c', `${[process.execPath, ...args].map(quote).join(' ')}; exit $?`], {
        cwd,
        env: { PATH: process.env['PATH'] ?? '', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      })
    : spawn(process.execPath, args, {
        cwd,
        env: { PATH: process.env['PATH'] ?? '', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      })
  if (options.group && child.pid !== undefined) {
    // Detached, the group would outlive a test process that ends without killing it.
    const orphaned = () => signalGroup(child.pid!, 'SIGKILL')
    process.once('exit', orphaned)
    child.once('exit', () => process.off('exit', orphaned))
  }
  const output = { stdout: '', stderr: '' }
  const listeners = new Set<() => void>()
  child.stdout.on('data', (d: Buffer) => {
    output.stdout += d.toString()
    for (const l of listeners) l()
  })
  child.stderr.on('data', (d: Buffer) => {
    output.stderr += d.toString()
  })
  const exited = new Promise<number | string | null>((resolve) =>
    child.on('exit', (code, signal) => {
      for (const l of listeners) l()
      resolve(code ?? signal)
    }),
  )
  return {
    output,
    exited,
    pid: child.pid,
    kill: (signal) => {
      if (options.group && child.pid !== undefined) signalGroup(child.pid, signal)
      else child.kill(signal)
    },
    waitFor(pattern, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          listeners.delete(check)
          reject(
            new Error(
              `timed out waiting for ${pattern}; output:\n${output.stdout}\n${output.stderr}`,
            ),
          )
        }, timeoutMs)
        const check = () => {
          const match = output.stdout.match(pattern)
          if (match || child.exitCode !== null || child.signalCode !== null) {
            clearTimeout(timer)
            listeners.delete(check)
            if (match) resolve(match)
            else reject(new Error(`exited before ${pattern}:\n${output.stdout}\n${output.stderr}`))
          }
        }
        listeners.add(check)
        check()
      })
    },
  }
}

/** Signals every process of the group `pgid` leads; nothing when the group is gone. */
function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal)
  } catch {
    // no process left in the group
  }
}

/**
 * Resolves once the server at `url` says (`GET /health/ready`) that its projection has nothing
 * pending: for tests that read a server process's database directly. Readiness answers (and the
 * lag in them) are reused for up to a second, so only a zero whose `measured_at` is after the
 * call began counts. Rejects after `timeoutMs`.
 */
export async function projected(url: string, timeoutMs = 30_000): Promise<void> {
  const started = Date.now()
  for (;;) {
    const res = await fetch(`${url}/health/ready`).catch(() => undefined)
    const body = (await res?.json().catch(() => undefined)) as
      | { projection?: { records: number; measured_at: string } }
      | undefined
    const measuredAt = Date.parse(body?.projection?.measured_at ?? '')
    if (body?.projection?.records === 0 && measuredAt >= started) return
    if (Date.now() - started > timeoutMs) {
      throw new Error(`the projection of ${url} did not catch up in time`)
    }
    await new Promise((r) => setTimeout(r, 100))
  }
}
