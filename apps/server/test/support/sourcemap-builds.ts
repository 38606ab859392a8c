import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { runScript } from '@tis/test-utils/run-script'
import { build } from 'esbuild'
import { expect } from 'vitest'

const APP_DIR = fileURLToPath(new URL('../fixtures/sourcemap-app/', import.meta.url))
const require = createRequire(import.meta.url)

/** The `sentry-cli` binary of @sentry/cli `major` (the npm aliases `sentry-cli-2`, `sentry-cli-3`). */
export const sentryCli = (major: 2 | 3) =>
  join(require.resolve(`sentry-cli-${major}/package.json`), '..', 'bin', 'sentry-cli')

/** One minified build of the fixture shop, as a bundler leaves it in `dist/`. */
export interface ShopBuild {
  /** The build's root: `src/` (copied sources) and `dist/assets/index-<hash>.js` with its map. */
  readonly dir: string
  readonly dist: string
  /** `assets/index-<hash>.js`: the script's path below the site's root. */
  readonly script: string
  /** The script's text as served (after `sentry-cli sourcemaps inject`, if run). */
  text(): Promise<string>
  /** The 1-based line of `text` in the original `src/<file>`. */
  lineOf(file: string, text: string): Promise<number>
  remove(): Promise<void>
}

/**
 * Builds the fixture shop minified with esbuild, its map beside it. `shift` prepends that many
 * bytes of code to the bundle, so two builds of the same sources have other positions (and
 * another hashed file name), as two deploys do.
 */
export async function buildShop(name: string, shift = 0): Promise<ShopBuild> {
  const dir = await mkdtemp(join(tmpdir(), `tis-shop-${name}-`))
  await cp(join(APP_DIR, 'src'), join(dir, 'src'), { recursive: true })
  await build({
    absWorkingDir: dir,
    entryPoints: ['src/main.ts'],
    outdir: 'dist/assets',
    entryNames: '[name]-[hash]',
    bundle: true,
    minify: true,
    sourcemap: true,
    format: 'iife',
    target: 'es2020',
    define: { BUILD: JSON.stringify(name) },
    banner: shift > 0 ? { js: `var __pad=${JSON.stringify('x'.repeat(shift))};` } : {},
    logLevel: 'silent',
  })
  const dist = join(dir, 'dist')
  const script = `assets/${(await readdir(join(dist, 'assets'))).find((f) => f.endsWith('.js'))}`
  return {
    dir,
    dist,
    script,
    text: () => readFile(join(dist, script), 'utf8'),
    async lineOf(file, text) {
      const source = await readFile(join(dir, 'src', file), 'utf8')
      return source.split('\n').findIndex((l) => l.includes(text)) + 1
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  }
}

/** Runs a `sentry-cli` command as a CI script would; expects exit 0 and resolves its output. */
export async function runSentryCli(major: 2 | 3, args: readonly string[]) {
  const run = await runScript(sentryCli(major), args, {
    env: { SENTRY_LOG_LEVEL: 'info', SENTRY_DISABLE_UPDATE_CHECK: 'true' },
    timeoutMs: 60_000,
  })
  expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0)
  return `${run.stdout}\n${run.stderr}`
}
