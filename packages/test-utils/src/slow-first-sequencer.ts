import { relative } from 'node:path'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

/**
 * Files known to take longest (seconds on two cores, from a serial run), so that a run without
 * vitest's results cache (a clean clone, CI) starts them first too: with files in parallel, the
 * run ends no sooner than its slowest file, plus the time that file waited in the queue.
 */
const SLOW_FILES: Readonly<Record<string, number>> = {
  'apps/server/test/faults/clickhouse-outage.e2e.test.ts': 115,
  'apps/server/test/fuzz-reads.e2e.test.ts': 88,
  'apps/server/test/fuzz.e2e.test.ts': 68,
  'apps/server/test/faults/alerts-receiver.e2e.test.ts': 67,
  'packages/docs-site/test/getting-started.test.ts': 63,
  'packages/dashboard/test/browser.test.ts': 42,
  'packages/dashboard/test/extreme-values.int.test.ts': 41,
  'apps/server/test/fuzz-management.e2e.test.ts': 40,
  'apps/server/test/faults/postgres-outage.e2e.test.ts': 38,
  'apps/server/test/cli.e2e.test.ts': 30,
  'apps/server/test/faults/alerts-sigkill.e2e.test.ts': 21,
  'packages/storage-postgres/test/pglite.int.test.ts': 21,
  'apps/server/test/crash-embedded.e2e.test.ts': 21,
  'apps/server/test/cli-sourcemaps.e2e.test.ts': 21,
}

/**
 * Orders the whole run's files longest first, across projects: by the duration vitest cached
 * for the file, else by {@link SLOW_FILES}, else in vitest's own order (unknown and larger files
 * first). vitest's base order keeps each project's files together, which with several workers
 * would start the slowest files of the last projects at the end of the run.
 */
export class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const base = await super.sort(files)
    const root = this.ctx.config.root
    const estimate = (spec: TestSpecification): number => {
      const path = relative(root, spec.moduleId)
      const cached = this.ctx.cache.getFileTestResults(`${spec.project.name}:${path}`)
      return cached ? cached.duration / 1000 : (SLOW_FILES[path] ?? 0)
    }
    const order = new Map(base.map((spec, index) => [spec, index]))
    return [...base].sort(
      (a, b) =>
        a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder ||
        estimate(b) - estimate(a) ||
        order.get(a)! - order.get(b)!,
    )
  }
}
