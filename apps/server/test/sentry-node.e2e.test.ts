import { describeWithTestDatabase } from '@tis/test-utils/postgres-suite'
import { type Harness, startPgliteHarness, startPostgresHarness } from '@tis/test-utils/server'
import { afterAll, beforeAll, describe } from 'vitest'
import { describeSentryNode } from './support/sentry-node-suite'

// Sentry's own Node SDK (@sentry/node) pointed at tis by nothing but its DSN, on each store.
describe('@sentry/node on PGlite', () => {
  let harness: Harness
  beforeAll(async () => {
    harness = await startPgliteHarness()
  })
  afterAll(() => harness?.close())
  describeSentryNode(() => harness)
})

describeWithTestDatabase('@sentry/node on PostgreSQL', (url) => {
  let harness: Harness
  beforeAll(async () => {
    harness = await startPostgresHarness(url)
  })
  afterAll(() => harness?.close())
  describeSentryNode(() => harness)
})
