// @ts-check
// Plain JavaScript: vitest loads config files from node_modules without transpiling them.
import { defineProject } from 'vitest/config'

/**
 * Vitest project settings shared by every package: workspace siblings resolve to their
 * TypeScript source through the `@tis/source` export condition, so tests never wait for a build.
 *
 * @param {string} name project name shown in test output (the package directory name)
 * @param {import('vitest/config').ViteUserConfig['test']} [test] extra vitest `test` options
 */
export function defineTisProject(name, test = {}) {
  return defineProject({
    resolve: { conditions: ['@tis/source', 'module', 'browser', 'development|production'] },
    ssr: { resolve: { conditions: ['@tis/source', 'module', 'node', 'development|production'] } },
    test: {
      name,
      include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
      ...test,
    },
  })
}
