// @ts-check
import { defineConfig } from 'tsup'

/**
 * The one tsup configuration every published tis package builds with: dual ESM/CJS with a
 * declaration file per condition (`.d.ts` / `.d.cts`), source maps, Node 18 syntax.
 *
 * @param {Partial<import('tsup').Options>} [overrides] per-package additions (extra entries, platform)
 */
export function defineTisConfig(overrides = {}) {
  return defineConfig({
    entry: ['src/index.ts'],
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    clean: true,
    target: 'node18',
    treeshake: true,
    ...overrides,
  })
}
