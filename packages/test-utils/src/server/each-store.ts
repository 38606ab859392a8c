import { afterAll, beforeAll, describe } from 'vitest'
import { describeWithTestDatabase } from '../postgres-suite'
import { type Harness, startPgliteHarness, startPostgresHarness } from './harness'

/**
 * Runs `suite` against a real server on each store: `<title> on PGlite`, then `<title> on
 * PostgreSQL` (skipped without the run's PostgreSQL server, failing in CI; see
 * {@link describeWithTestDatabase}), each server started with `env()` on top of the suites'
 * configuration. The suite reads its harness through the getter, set once the server is up.
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
