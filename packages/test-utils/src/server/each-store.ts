import { afterAll, beforeAll, describe } from 'vitest'
import { describeWithTestDatabase } from '../postgres-suite'
import { type Harness, startPgliteHarness, startPostgresHarness } from './harness'

/**
 * Runs `suite` against a real server on PGlite (in memory), started with `env()` on top of the
 * suites' configuration: `<title> on PGlite`. The suite reads its harness through the getter,
 * set once the server is up. End-to-end suites test the engine and the host, not the driver,
 * so they run on PGlite; the store contract runs on both drivers.
 */
export function describeOnPglite(
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
}

/**
 * Runs `suite` against a real server on the run's PostgreSQL: `<title> on PostgreSQL` (skipped
 * without the server, failing in CI; see {@link describeWithTestDatabase}). For what only a
 * server database shows: a second process on the same data, a pool of connections.
 */
export function describeOnPostgres(
  title: string,
  suite: (harness: () => Harness) => void,
  env: () => Record<string, string> = () => ({}),
): void {
  describeWithTestDatabase(`${title} on PostgreSQL`, (url) => {
    let harness: Harness
    beforeAll(async () => {
      harness = await startPostgresHarness(url, env())
    })
    afterAll(() => harness?.close())
    suite(() => harness)
  })
}

/**
 * Runs `suite` on each store: {@link describeOnPglite}, then {@link describeOnPostgres}. Only for
 * a suite whose cases exercise the driver (most suites need one store: PGlite).
 */
export function describeOnEachStore(
  title: string,
  suite: (harness: () => Harness) => void,
  env: () => Record<string, string> = () => ({}),
): void {
  describeOnPglite(title, suite, env)
  describeOnPostgres(title, suite, env)
}
