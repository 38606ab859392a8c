import { afterAll, beforeAll, describe } from 'vitest'
import { type Harness, startPgliteHarness } from './support/harness'
import { describeHttp } from './support/http-suite'
import { describeIngestRecords } from './support/ingest-records-suite'
import { describeIngestStatuses } from './support/ingest-status-suite'
import { describeManagement } from './support/management-suite'
import { describeMobileTokens } from './support/mobile-suite'
import { describeRateLimits } from './support/rate-limit-suite'
import { describeReads } from './support/reads-suite'

// The whole HTTP interface against a real listening server on PGlite (in memory).
describe('server on PGlite', () => {
  let harness: Harness
  beforeAll(async () => {
    harness = await startPgliteHarness()
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
