import { execFile } from 'node:child_process'
import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { crc32 } from 'node:zlib'
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

/**
 * Builds the app with `@sentry/bundler-plugins` 11's esbuild plugin (the pure-JS uploader of
 * npm's `sentry` package, no binary): it injects debug IDs and uploads to `url`. Resolves the
 * output directory and every message the plugin logged or failed with (it never fails a build).
 */
export async function buildWithPlugin(options: {
  readonly url: string
  readonly authToken: string
  readonly project: string
  readonly release?: string
  readonly variant: string
}): Promise<{ dist: string; errors: string[] }> {
  const { sentryEsbuildPlugin } = await import('@sentry/bundler-plugins/esbuild')
  const dist = await buildApp(`${options.variant}-plain`)
  const entry = join(dirname(dist), 'src.js')
  const out = join(dirname(dist), 'plugin-dist')
  const errors: string[] = []
  await build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    sourcemap: true,
    format: 'iife',
    outdir: out,
    logLevel: 'silent',
    plugins: [
      sentryEsbuildPlugin({
        url: options.url,
        authToken: options.authToken,
        org: 'any-org',
        project: options.project,
        telemetry: false,
        silent: process.env['SENTRY_LOG_LEVEL'] !== 'debug',
        debug: process.env['SENTRY_LOG_LEVEL'] === 'debug',
        ...(options.release
          ? { release: { name: options.release, setCommits: false, deploy: false } }
          : { release: { create: false, finalize: false, inject: false } }),
        errorHandler: (error: Error) => void errors.push(String(error)),
      }),
    ],
  })
  return { dist: out, errors }
}

/** The debug ID a bundler plugin's snippet registers (`_sentryDebugIds[…] = "<id>"`). */
export async function pluginDebugId(file: string): Promise<string | null> {
  const text = await readFile(file, 'utf8')
  return /_sentryDebugIds\[[^\]]+\]\s*=\s*"([0-9a-f-]{36})"/.exec(text)?.[1] ?? null
}

/** A zip of stored (uncompressed) entries: enough to send a zip that is not a bundle. */
export function storedZip(entries: Record<string, string>): Uint8Array {
  const locals: Buffer[] = []
  const central: Buffer[] = []
  let offset = 0
  for (const [name, text] of Object.entries(entries)) {
    const data = Buffer.from(text)
    const file = Buffer.from(name)
    const crc = crc32(data)
    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    local.writeUInt16LE(20, 4)
    local.writeUInt32LE(crc, 14)
    local.writeUInt32LE(data.length, 18)
    local.writeUInt32LE(data.length, 22)
    local.writeUInt16LE(file.length, 26)
    const dir = Buffer.alloc(46)
    dir.writeUInt32LE(0x02014b50, 0)
    dir.writeUInt16LE(20, 4)
    dir.writeUInt16LE(20, 6)
    dir.writeUInt32LE(crc, 16)
    dir.writeUInt32LE(data.length, 20)
    dir.writeUInt32LE(data.length, 24)
    dir.writeUInt16LE(file.length, 28)
    dir.writeUInt32LE(offset, 42)
    locals.push(local, file, data)
    central.push(dir, file)
    offset += local.length + file.length + data.length
  }
  const dirBytes = Buffer.concat(central)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(central.length / 2, 8)
  end.writeUInt16LE(central.length / 2, 10)
  end.writeUInt32LE(dirBytes.length, 12)
  end.writeUInt32LE(offset, 16)
  return new Uint8Array(Buffer.concat([...locals, dirBytes, end]))
}
