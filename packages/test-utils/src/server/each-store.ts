import { afterAll, beforeAll, describe } from 'vitest'
import { describeWithTestDatabase } from '../postgres-suite'
import { type Harness, startPgliteHarness, startPostgresHarness } from './harness'

/**
 * Runs `suite` against a real server on each store: `<title> on PGlite`, then `<title> on
 * PostgreSQL` (skipped without the run's PostgreSQL server, failing in CI; see
 * {@link describeWithTestDatabase}). The suite reads its harness through the getter, which is
 * set once the block's server is up.
 */
export function describeOnEachStore(title: string, suite: (harness: () => Harness) => void): void {
  describe(`${title} on PGlite`, () => {
    let harness: Harness
    beforeAll(async () => {
      harness = await startPgliteHarness()
    })
    afterAll(() => harness?.close())
    suite(() => harness)
  })
  describeWithTestDatabase(`${title} on PostgreSQL`, (url) => {
    let harness: Harness
    beforeAll(async () => {
      harness = await startPostgresHarness(url)
    })
    afterAll(() => harness?.close())
    suite(() => harness)
  })
}
