// The minified bundle of the source-map bench: a generated shop "app" (several modules of
// ordinary functions, the in-app sources) with @sentry/browser bundled in, minified by esbuild
// with a source map that carries sourcesContent, and a debug ID on both files as sentry-cli
// injects it. apps/bench has neither esbuild nor @sentry/browser: both are resolved from
// apps/server, whose tests bundle @sentry/browser the same way.
import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The part of esbuild's `build` the bench calls (esbuild is not a dependency of apps/bench). */
type EsbuildBuild = (options: Record<string, unknown>) => Promise<{
  outputFiles: { path: string; text: string }[]
}>

const SERVER_DIR = fileURLToPath(new URL('../../server/', import.meta.url))

/** The built bundle and what the events need to point into it. */
export interface BenchBundle {
  /** The minified script as served, ending in its debugId and sourceMappingURL comments. */
  readonly code: string
  /** The source map (JSON text) with `debug_id` and `sourcesContent`. */
  readonly map: string
  readonly debugId: string
  /** The script's file name, e.g. `app-3f2a9c1d.js`. */
  readonly file: string
  /** Indexes in the map's `sources` of the generated app modules (not node_modules). */
  readonly appSources: ReadonlySet<number>
}

/** `count` modules of a few functions each that call one another, like an app's code. */
function appModules(dir: string, count: number): void {
  for (let m = 0; m < count; m++) {
    const lines = [`import * as Sentry from '@sentry/browser'`, `const cache${m} = new Map()`]
    for (let f = 0; f < 6; f++) {
      lines.push(
        `export function step${m}_${f}(order, depth = 0) {`,
        `  const key = order.id + ':' + depth + ':${m}_${f}'`,
        `  if (cache${m}.has(key)) return cache${m}.get(key)`,
        `  const total = order.items.reduce((sum, item) => sum + item.price * item.quantity, 0)`,
        `  if (total > ${1000 + f}) Sentry.addBreadcrumb({ message: 'large order ' + key })`,
        `  const result = depth > ${f} ? { key, total } : step${m}_${(f + 1) % 6}(order, depth + 1)`,
        `  cache${m}.set(key, result)`,
        `  return result`,
        `}`,
      )
    }
    writeFileSync(join(dir, `module-${m}.js`), `${lines.join('\n')}\n`)
  }
  const entry = [
    `export * from '@sentry/browser'`,
    ...Array.from({ length: count }, (_, m) => `export * as module${m} from './module-${m}.js'`),
  ]
  writeFileSync(join(dir, 'main.js'), `${entry.join('\n')}\n`)
}

/** Builds the bundle (a second or two); `modules` app modules go in next to the SDK. */
export async function buildBenchBundle(modules = 40): Promise<BenchBundle> {
  const require = createRequire(join(SERVER_DIR, 'package.json'))
  const { build } = require('esbuild') as { build: EsbuildBuild }
  const dir = mkdtempSync(join(tmpdir(), 'tis-sourcemap-bench-'))
  try {
    appModules(dir, modules)
    const debugId = randomUUID()
    const file = `app-${debugId.slice(0, 8)}.js`
    const result = await build({
      entryPoints: [join(dir, 'main.js')],
      outfile: join(dir, 'out', file),
      // @sentry/browser as apps/server has it installed.
      nodePaths: [join(SERVER_DIR, 'node_modules')],
      bundle: true,
      minify: true,
      format: 'iife',
      globalName: 'Shop',
      platform: 'browser',
      target: 'es2022',
      sourcemap: 'external',
      sourcesContent: true,
      write: false,
      logLevel: 'silent',
    })
    const codeFile = result.outputFiles.find((f) => f.path.endsWith('.js'))
    const mapFile = result.outputFiles.find((f) => f.path.endsWith('.js.map'))
    if (!codeFile || !mapFile) throw new Error('esbuild wrote no script and map')
    const parsed = JSON.parse(mapFile.text) as { sources: string[]; debug_id?: string }
    // As `sentry-cli sourcemaps inject` leaves them: the ID in the map and in a comment.
    parsed.debug_id = debugId
    const appSources = new Set(
      parsed.sources.flatMap((s, i) => (/module-\d+\.js$/.test(s) ? [i] : [])),
    )
    const minified = codeFile.text.replace(/\n\/\/# sourceMappingURL=.*\s*$/, '')
    const code = `${minified.trimEnd()}\n//# debugId=${debugId}\n//# sourceMappingURL=${file}.map\n`
    return { code, map: JSON.stringify(parsed), debugId, file, appSources }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
