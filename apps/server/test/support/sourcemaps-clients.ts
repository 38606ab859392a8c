import { execFile } from 'node:child_process'
import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { build } from 'esbuild'

// The real upload clients of the source-map e2e tests: sentry-cli 2.x and 3.x (npm's binaries)
// run as child processes, and an esbuild build of a small app to upload.

const require = createRequire(import.meta.url)
/** The binaries of `@sentry/cli` 2.58.6 and 3.8.0 (apps/server devDependencies). */
export const SENTRY_CLI = {
  2: join(dirname(require.resolve('sentry-cli-2/package.json')), 'bin/sentry-cli'),
  3: join(dirname(require.resolve('sentry-cli-3/package.json')), 'bin/sentry-cli'),
} as const

/** What a run of sentry-cli gave. */
export interface CliRun {
  readonly code: number
  readonly out: string
}

/** Runs sentry-cli `version` against `url` with `token`, in a clean HOME (no ~/.sentryclirc). */
export async function sentryCli(
  version: 2 | 3,
  url: string,
  token: string | null,
  args: readonly string[],
): Promise<CliRun> {
  const home = await mkdtemp(join(tmpdir(), 'sentry-cli-home-'))
  const auth = token === null ? [] : ['--auth-token', token]
  return new Promise((done) => {
    execFile(
      SENTRY_CLI[version],
      ['--url', url, ...auth, ...args],
      {
        env: {
          PATH: process.env['PATH'] ?? '',
          HOME: home,
          SENTRY_LOG_LEVEL: process.env['SENTRY_LOG_LEVEL'] ?? 'info',
          SENTRY_DISABLE_UPDATE_CHECK: '1',
        },
        timeout: 60_000,
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0
        done({ code, out: `${stdout}\n${stderr}` })
      },
    )
  })
}

/** Builds a minified app with an external map into a fresh directory: `app.min.js(.map)`. */
export async function buildApp(variant: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'tis-sourcemaps-'))
  const entry = join(dir, 'src.js')
  await writeFile(
    entry,
    [
      'function explode(input) {',
      `  throw new Error('boom ${variant} ' + input)`,
      '}',
      'export function main(x) {',
      '  return explode(x)',
      '}',
      'globalThis.main = main',
      '',
    ].join('\n'),
  )
  await build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    sourcemap: true,
    format: 'iife',
    outfile: join(dir, 'dist/app.min.js'),
    logLevel: 'silent',
  })
  return join(dir, 'dist')
}

/** The debug ID `sentry-cli sourcemaps inject` wrote into a file (its `//# debugId=` comment). */
export async function injectedDebugId(file: string): Promise<string | null> {
  const text = await readFile(file, 'utf8')
  return /\/\/# debugId=([0-9a-f-]{36})/.exec(text)?.[1] ?? null
}
