import { describeWithTestDatabase } from '@tis/test-utils/postgres-suite'
import { type Harness, startPgliteHarness, startPostgresHarness } from '@tis/test-utils/server'
import { afterAll, beforeAll, describe } from 'vitest'

/**
 * Runs `suite` against a real server on PGlite and on PostgreSQL (skipped without one, failing
 * under CI), each server started with `env()` on top of the suites' configuration.
 */
export function describeOnEachStore(
  title: string,
  suite: (harness: () => Harness) => void,
  env: () => Record<string, string> = () => ({}),
): void {
  describe(`${title} on PGlite`, () => {
    let harness: Harness
    beforeAll(async () => {
      harness = await startPgliteHarness(env())
    })
    afterAll(() => harness?.close())
    suite(() => harness)
  })

  describeWithTestDatabase(`${title} on PostgreSQL`, (url) => {
    let harness: Harness
    beforeAll(async () => {
      harness = await startPostgresHarness(url, env())
    })
    afterAll(() => harness?.close())
    suite(() => harness)
  })
}
