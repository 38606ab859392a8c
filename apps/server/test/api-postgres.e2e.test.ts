import { describeWithTestDatabase } from '@tis/test-utils/postgres-suite'
import { type Harness, startPostgresHarness } from '@tis/test-utils/server'
import { afterAll, beforeAll } from 'vitest'
import { describeApi } from './support/api-suite'

// The same suites against real PostgreSQL (TEST_DATABASE_URL, else the run's embedded server),
// through DATABASE_URL as in production, in a schema of this suite's own.
describeWithTestDatabase('server on PostgreSQL', (url) => {
  let harness: Harness
  beforeAll(async () => {
    harness = await startPostgresHarness(url)
  })
  afterAll(() => harness?.close())
  describeApi(() => harness)
})
