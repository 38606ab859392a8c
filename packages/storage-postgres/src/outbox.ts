import { randomUUID } from 'node:crypto'
import type { AnalyticsOutbox } from '@tis/ingest'
import { ANALYTICS } from './analytics/consumer'
import { COMPLETE_RANGE, claimRange, RELEASE_RANGE } from './analytics/range-claim'
import type { SqlExecutor } from './executor'
import { consumerLag } from './log/position'

/**
 * The analytics export over one executor: the ingest log behind the projection. A claim leases
 * the next range of the log that the projection has passed, up to the limit (one lease on the
 * `analytics` consumer: one drainer at a time), and resolves its events and spans as stored.
 * `complete` moves the consumer past the range and `release` hands it back, both only while the
 * lease is still the claim's.
 */
export function createOutboxQueries(db: SqlExecutor): AnalyticsOutbox {
  return {
    async claim(limit, leaseMs) {
      const lease = randomUUID()
      const ms = Math.max(1, Math.round(leaseMs))
      const records = await db.transaction((tx) =>
        claimRange(tx, { consumer: ANALYTICS, limit, leaseMs: ms, lease }),
      )
      return { lease, records }
    },
    async complete(claim) {
      if (claim.records.length > 0) await db.query(COMPLETE_RANGE, [ANALYTICS, claim.lease])
    },
    async release(claim, retryAt = new Date(0)) {
      if (claim.records.length > 0) {
        await db.query(RELEASE_RANGE, [ANALYTICS, claim.lease, retryAt])
      }
    },
    async stats() {
      const lag = await consumerLag(db, ANALYTICS)
      return { depth: lag.records, oldestEnqueuedAt: lag.oldestReceivedAt }
    },
  }
}
