import { defineConfig } from 'vitest/config'
import { SummaryReporter } from './src/summary-reporter'

// The root test run: every package and app is a vitest project, run in one process so the
// suite ends with one summary line (`N passed, N failed, N skipped`) that CI can read.
export default defineConfig({
  test: {
    root: '../..',
    projects: ['packages/*/vitest.config.ts', 'apps/*/vitest.config.ts'],
    reporters: ['default', new SummaryReporter()],
  },
})
