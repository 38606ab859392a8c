import { describe, inject, it } from 'vitest'
import './postgres-context'

/**
 * A `describe` block that needs the run's PostgreSQL server (provided by
 * `@tis/test-utils/postgres-global-setup`, which the project's vitest config must list).
 * Without a server it is skipped with the reason and how to run it (`TEST_DATABASE_URL`); in CI
 * it fails instead, so a green run always includes the PostgreSQL suites.
 */
export function describeWithTestDatabase(name: string, suite: (url: string) => void): void {
  const url = inject('testDatabaseUrl')
  if (url) {
    describe(name, () => suite(url))
    return
  }
  const reason = inject('testDatabaseSkipReason') || 'postgres-global-setup is not configured'
  if (inject('testDatabaseRequired')) {
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
