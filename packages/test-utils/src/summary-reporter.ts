import type { Reporter, TestModule } from 'vitest/node'

/**
 * Prints one closing line, `tests: N passed, N failed, N skipped`, after the default reporter,
 * so CI and people reading a log see the totals of the whole workspace in one place.
 */
export class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0
    let failed = 0
    let skipped = 0
    for (const mod of testModules) {
      for (const test of mod.children.allTests()) {
        const state = test.result().state
        if (state === 'passed') passed++
        else if (state === 'failed') failed++
        else skipped++
      }
      if (mod.state() === 'failed' && mod.children.size === 0) failed++
    }
    process.stdout.write(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`)
  }
}
