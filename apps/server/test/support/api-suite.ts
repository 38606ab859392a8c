import type { Harness } from '@tis/test-utils/server'
import { describe } from 'vitest'
import { describeAlerts } from './alerts-suite'
import { describeBatchIngest } from './batch-suite'
import { describeBounds } from './bounds-suite'
import { describeEncodedBodies } from './encoded-bodies-suite'
import { describeHttp } from './http-suite'
import { describeIdempotency } from './idempotency-suite'
import { describeIngestRecords } from './ingest-records-suite'
import { describeIngestStatuses } from './ingest-status-suite'
import { describeLogisterClients } from './logister-clients-suite'
import { describeManagement } from './management-suite'
import { describeMobileTokens } from './mobile-suite'
import { describePerformance } from './performance-suite'
import { describeRateLimits } from './rate-limit-suite'
import { describeReads } from './reads-suite'
import { describeSessions } from './sessions-suite'

/** Every HTTP suite, run against whichever store the harness was started on. */
export function describeApi(harness: () => Harness): void {
  describe('http', () => describeHttp(harness))
  describe('ingestion statuses', () => describeIngestStatuses(harness))
  describe('ingestion records', () => describeIngestRecords(harness))
  describe('idempotent ingest', () => describeIdempotency(harness))
  describe('batch ingest', () => describeBatchIngest(harness))
  describe('compressed bodies and long strings', () => describeEncodedBodies(harness))
  describe("Logister's clients", () => describeLogisterClients(harness))
  describe('management', () => describeManagement(harness))
  describe('mobile ingest tokens', () => describeMobileTokens(harness))
  describe('rate limits', () => describeRateLimits(harness))
  describe('read API', () => describeReads(harness))
  describe('alerts', () => describeAlerts(harness))
  describe('performance reads', () => describePerformance(harness))
  describe('extreme values, links and bodies', () => describeBounds(harness))
  // Last: it moves the server's clock weeks ahead.
  describe('dashboard sessions', () => describeSessions(harness))
}
