import { describeWithTestDatabase } from '@tis/test-utils/postgres-suite'
import { type Harness, startPgliteHarness, startPostgresHarness } from '@tis/test-utils/server'
import { afterAll, beforeAll, describe } from 'vitest'
import { describeSentryPython, describeWithSentryPython } from './support/sentry-python-suite'

// Sentry's own Python SDK (Debian's python3-sentry-sdk 1.9.10, run by /usr/bin/python3) pointed
// at tis by nothing but its DSN, on each store. Skipped without the SDK, failing under CI.
describeWithSentryPython('Sentry Python SDK', () => {
  describe('on PGlite', () => {
    let harness: Harness
    beforeAll(async () => {
      harness = await startPgliteHarness()
    })
    afterAll(() => harness?.close())
    describeSentryPython(() => harness)
  })

  describeWithTestDatabase('on PostgreSQL', (url) => {
    let harness: Harness
    beforeAll(async () => {
      harness = await startPostgresHarness(url)
    })
    afterAll(() => harness?.close())
    describeSentryPython(() => harness)
  })
})
