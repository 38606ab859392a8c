import { describeWithTestDatabase } from '@tis/test-utils/postgres-suite'
import { type Harness, startPgliteHarness, startPostgresHarness } from '@tis/test-utils/server'
import { afterAll, beforeAll, describe } from 'vitest'
import { describeLogisterPythonReplay } from './support/logister-python-suite'

// Logister's own Python client, replayed request for request against a real server on each store.
describe('Logister Python client replay on PGlite', () => {
  let harness: Harness
  beforeAll(async () => {
    harness = await startPgliteHarness()
  })
  afterAll(() => harness?.close())
  describeLogisterPythonReplay(() => harness)
})

describeWithTestDatabase('Logister Python client replay on PostgreSQL', (url) => {
  let harness: Harness
  beforeAll(async () => {
    harness = await startPostgresHarness(url)
  })
  afterAll(() => harness?.close())
  describeLogisterPythonReplay(() => harness)
})
