import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'
import { SlowFirstSequencer } from './src/slow-first-sequencer.ts'
import { SummaryReporter } from './src/summary-reporter.ts'

// The root test run: every package and app is a vitest project, run in one process so the
// suite ends with one summary line (`tests: N passed, N failed, N skipped`) that CI can read.
//
// Test files run in parallel, one more worker than there are cores (at least three): most of
// the slow files spend their time waiting on child processes (servers, PostgreSQL, ClickHouse,
// Chromium, the CLI) and on timers (outages, retry schedules), not on the CPU. Files share
// nothing but the run's PostgreSQL server, in which each suite makes a schema of its own; every
// server, receiver and page listens on a port of its own (port 0). `VITEST_MAX_WORKERS=1` (or
// `--maxWorkers=1`) runs them one after another. See docs/testing.md#parallel-files.
export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    projects: ['packages/*/vitest.config.ts', 'apps/*/vitest.config.ts'],
    reporters: ['default', new SummaryReporter()],
    maxWorkers: Math.max(3, availableParallelism() + 1),
    sequence: { sequencer: SlowFirstSequencer },
  },
})
