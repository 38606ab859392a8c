import { execFile } from 'node:child_process'
import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'

const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href

/** How a script run by {@link runScript} ended. */
export interface ScriptResult {
  /** Exit code; `null` when a signal (or the timeout) ended it. */
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/** Options of {@link runScript}. */
export interface RunScriptOptions {
  /** Environment of the child, on top of `PATH`. @default {} */
  readonly env?: Record<string, string>
  /** @default the current working directory */
  readonly cwd?: string
  /** @default 30000 */
  readonly timeoutMs?: number
}

/**
 * Runs `command` with `args` as a child process and collects its output; never rejects. A
 * command ending in `.ts` runs as a TypeScript file through node and tsx, with workspace
 * packages resolved to their sources (`@tis/source`), as `pnpm start` of an example does.
 */
export function runScript(
  command: string,
  args: readonly string[] = [],
  options: RunScriptOptions = {},
): Promise<ScriptResult> {
  const [file, argv] = command.endsWith('.ts')
    ? [process.execPath, ['--conditions=@tis/source', '--import', TSX, command, ...args]]
    : [command, [...args]]
  return new Promise((resolve) => {
    execFile(
      file,
      argv,
      {
        cwd: options.cwd ?? process.cwd(),
        env: { PATH: process.env['PATH'] ?? '', ...options.env },
        timeout: options.timeoutMs ?? 30_000,
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0
        resolve({ code, stdout, stderr })
      },
    )
  })
}
