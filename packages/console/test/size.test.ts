import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'
import { expect, it } from 'vitest'

/** The budget of the console integration, minified and gzipped (`@tis/sdk` is a peer, not bundled). */
const BUDGET = 1.5 * 1024

it(`@tis/console stays within ${BUDGET} bytes minified and gzipped`, async () => {
  const result = await build({
    entryPoints: [fileURLToPath(new URL('../src/index.ts', import.meta.url))],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    external: ['@tis/sdk'],
    write: false,
    logLevel: 'silent',
  })
  const code = result.outputFiles[0]!.contents
  const size = gzipSync(code, { level: 9 }).length
  console.info(`@tis/console: ${code.length} B minified, ${size} B minified+gzipped`)
  expect(size).toBeLessThanOrEqual(BUDGET)
})
