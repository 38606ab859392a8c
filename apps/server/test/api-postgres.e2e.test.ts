import { describeWithTestDatabase } from '@tis/test-utils/postgres-suite'
import { afterAll, beforeAll, describe } from 'vitest'
import { type Harness, startPostgresHarness } from './support/harness'
import { describeHttp } from './support/http-suite'
import { describeIngestRecords } from './support/ingest-records-suite'
import { describeIngestStatuses } from './support/ingest-status-suite'
import { describeManagement } from './support/management-suite'
import { describeMobileTokens } from './support/mobile-suite'
import { describeRateLimits } from './support/rate-limit-suite'
import { describeReads } from './support/reads-suite'

// The same suites against real PostgreSQL (TEST_DATABASE_URL, else the run's embedded server),
// through DATABASE_URL as in production, in a schema of this suite's own.
describeWithTestDatabase('server on PostgreSQL', (url) => {
  let harness: Harness
  beforeAll(async () => {
    harness = await startPostgresHarness(url)
  })
  afterAll(() => harness?.close())

  describe('http', () => describeHttp(() => harness))
  describe('ingestion statuses', () => describeIngestStatuses(() => harness))
  describe('ingestion records', () => describeIngestRecords(() => harness))
  describe('management', () => describeManagement(() => harness))
  describe('mobile ingest tokens', () => describeMobileTokens(() => harness))
  describe('rate limits', () => describeRateLimits(() => harness))
  describe('read API', () => describeReads(() => harness))
})
