import postgres from 'postgres'
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
    await installSharedExtensions(pg.url)
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

/**
 * Installs pg_trgm once for the whole run, in `pg_catalog` (searched by every `search_path`).
 * Each suite migrates a schema of its own with only that schema on its path, and migration 0008
 * runs `create extension if not exists pg_trgm`: left to the suites, the first one would put
 * the extension in its own schema, where suites migrating at the same time (test files run in
 * parallel) could not see its operator class, and dropping that schema would remove it for all.
 * Where pg_trgm is missing or already installed, nothing changes (the migration copes alone).
 */
async function installSharedExtensions(url: string): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} })
  try {
    const [found] = await sql`select count(*)::int as n from pg_extension where extname = 'pg_trgm'`
    if (found?.['n'] === 0) await sql`create extension if not exists pg_trgm schema pg_catalog`
  } catch {
    // Not available or not allowed: the migration's own fallback applies.
  } finally {
    await sql.end()
  }
}
