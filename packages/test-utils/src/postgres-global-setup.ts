import type { TestProject } from 'vitest/node'
import { acquireTestPostgres, TEST_DATABASE_HINT } from './postgres'

declare module 'vitest' {
  interface ProvidedContext {
    /** URL of the run's PostgreSQL server, or `null` when none could be started. */
    testDatabaseUrl: string | null
    /** Why `testDatabaseUrl` is `null`, with how to run the suites anyway. */
    testDatabaseSkipReason: string
  }
}

/**
 * Vitest globalSetup that provides a PostgreSQL URL to the tests (`inject('testDatabaseUrl')`):
 * `TEST_DATABASE_URL`, else one embedded server per test run. Where no server can start, tests
 * get `null` and skip with the reason, except in CI (`CI` set), where the run fails instead.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  try {
    const pg = await acquireTestPostgres()
    project.provide('testDatabaseUrl', pg.url)
    project.provide('testDatabaseSkipReason', '')
    return () => pg.release()
  } catch (error) {
    const reason = `${error instanceof Error ? error.message : String(error)}\n${TEST_DATABASE_HINT}`
    if (process.env['CI'])
      throw new Error(`PostgreSQL is required in CI. ${reason}`, { cause: error })
    console.warn(`[test-utils] skipping the PostgreSQL suites: ${reason}`)
    project.provide('testDatabaseUrl', null)
    project.provide('testDatabaseSkipReason', reason)
    return async () => {}
  }
}
