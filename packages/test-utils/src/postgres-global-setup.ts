import type { TestProject } from 'vitest/node'
import { acquireTestPostgres, TEST_DATABASE_HINT } from './postgres'
import './postgres-context'

/**
 * Vitest globalSetup that provides a PostgreSQL URL to the tests (read it with
 * `describeWithTestDatabase`): `TEST_DATABASE_URL`, else one embedded server per test run,
 * shared by every project that lists this setup.
 *
 * It never throws: vitest 4 exits with code 0 when a globalSetup fails, which would let CI pass
 * with no database tests run. Instead the suites skip with the reason, or, when `CI` is set,
 * fail with it.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  project.provide('testDatabaseRequired', Boolean(process.env['CI']))
  try {
    const pg = await acquireTestPostgres()
    project.provide('testDatabaseUrl', pg.url)
    project.provide('testDatabaseSkipReason', '')
    return () => pg.release()
  } catch (error) {
    const reason = `${error instanceof Error ? error.message : String(error)}\n${TEST_DATABASE_HINT}`
    console.warn(`[test-utils] no PostgreSQL for this run: ${reason}`)
    project.provide('testDatabaseUrl', null)
    project.provide('testDatabaseSkipReason', reason)
    return async () => {}
  }
}
