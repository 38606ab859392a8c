import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'
import { expect, it } from 'vitest'

/** The budget of a page's whole tis code: the `@tis/sdk` core and `@tis/browser`, min+gzip. */
const BUDGET = 8 * 1024

const source = (path: string) => JSON.stringify(fileURLToPath(new URL(path, import.meta.url)))

it(`@tis/sdk and @tis/browser together stay within ${BUDGET} bytes minified and gzipped`, async () => {
  const result = await build({
    // Every export of both, so tree shaking cannot hide part of either.
    stdin: {
      // @tis/sdk through its package exports (`@tis/source`: its TypeScript source).
      contents: `export * from '@tis/sdk'\nexport * from ${source('../src/index.ts')}`,
      resolveDir: fileURLToPath(new URL('..', import.meta.url)),
      loader: 'ts',
    },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    conditions: ['@tis/source'],
    write: false,
    logLevel: 'silent',
  })
  expect(result.outputFiles).toHaveLength(1)
  const code = result.outputFiles[0]!.contents
  const size = gzipSync(code, { level: 9 }).length
  console.info(`@tis/sdk + @tis/browser: ${code.length} B minified, ${size} B minified+gzipped`)
  expect(size).toBeLessThanOrEqual(BUDGET)
  // One copy of the core: @tis/browser's import of @tis/sdk resolves to the same source files.
  expect(result.outputFiles[0]!.text.match(/client disabled/g)).toHaveLength(1)
  expect(result.outputFiles[0]!.text).not.toMatch(/\bnode:/)
})
