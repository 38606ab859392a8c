import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'
import { expect, it } from 'vitest'

/** The budget of `@tis/express`, minified and gzipped (`@tis/sdk` is a peer, not bundled). */
const BUDGET = 2.5 * 1024

it(`@tis/express stays within ${BUDGET} bytes minified and gzipped`, async () => {
  const result = await build({
    entryPoints: [fileURLToPath(new URL('../src/index.ts', import.meta.url))],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'node',
    target: 'node18',
    external: ['@tis/sdk'],
    write: false,
    logLevel: 'silent',
  })
  const code = result.outputFiles[0]!.contents
  const size = gzipSync(code, { level: 9 }).length
  console.info(`@tis/express: ${code.length} B minified, ${size} B minified+gzipped`)
  expect(size).toBeLessThanOrEqual(BUDGET)
  // express is used for its types only: the runtime never loads it.
  expect(result.outputFiles[0]!.text).not.toMatch(/["']express["']/)
})
