import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'
import { SummaryReporter } from './src/summary-reporter.ts'

// The root test run: every package and app is a vitest project, run in one process so the
// suite ends with one summary line (`tests: N passed, N failed, N skipped`) that CI can read.
export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    projects: ['packages/*/vitest.config.ts', 'apps/*/vitest.config.ts'],
    reporters: ['default', new SummaryReporter()],
  },
})
