import { describe, inject, it } from 'vitest'
import './postgres-context'

/**
 * The run's PostgreSQL server as the globalSetup provided it: its URL, or why there is none and
 * whether that must fail the run (`CI` set). Call it in a test file (at collection or in a hook).
 */
export function testDatabase():
  | { readonly url: string }
  | { readonly url: null; readonly reason: string; readonly required: boolean } {
  const url = inject('testDatabaseUrl')
  if (url) return { url }
  const reason = inject('testDatabaseSkipReason') || 'postgres-global-setup is not configured'
  return { url: null, reason, required: inject('testDatabaseRequired') }
}

/**
 * A `describe` block that needs the run's PostgreSQL server (provided by
 * `@tis/test-utils/postgres-global-setup`, which the project's vitest config must list).
 * Without a server it is skipped with the reason and how to run it (`TEST_DATABASE_URL`); in CI
 * it fails instead, so a green run always includes the PostgreSQL suites.
 */
export function describeWithTestDatabase(name: string, suite: (url: string) => void): void {
  const database = testDatabase()
  if (database.url !== null) {
    const { url } = database
    describe(name, () => suite(url))
    return
  }
  const { reason } = database
  if (database.required) {
    describe(name, () => {
      it('has a PostgreSQL server (required in CI)', () => {
        throw new Error(`PostgreSQL is required when CI is set: ${reason}`)
      })
    })
    return
  }
  describe.skip(`${name} (skipped: ${reason})`, () => {
    it('needs PostgreSQL', () => {})
  })
}
