import { randomUUID } from 'node:crypto'
import type { AnalyticsOutbox } from '@tis/ingest'
import { ANALYTICS } from './analytics/consumer'
import { claimQueued, queuedStats } from './analytics/queued-claims'
import { COMPLETE_RANGE, claimRange, RELEASE_RANGE } from './analytics/range-claim'
import type { SqlExecutor } from './executor'
import { consumerLag } from './log/position'

/**
 * The analytics export over one executor. A claim takes, under one lease, the records queued
 * in `analytics_outbox` (per-row leases, `FOR UPDATE SKIP LOCKED`: written by `writeBatch`
 * outside the log, or left by an earlier version) and then, up to the limit, the next range of
 * the log that the projection has passed (one lease on the `analytics` consumer: one drainer at
 * a time). `complete` removes the queued records and moves the cursor past the range, both only
 * while the lease is still the claim's.
 */
export function createOutboxQueries(db: SqlExecutor): AnalyticsOutbox {
  return {
    async claim(limit, leaseMs) {
      const lease = randomUUID()
      const ms = Math.max(1, Math.round(leaseMs))
      const records = await db.transaction(async (tx) => {
        const queued = await claimQueued(tx, limit, ms, lease)
        const range = await claimRange(tx, {
          consumer: ANALYTICS,
          limit: limit - queued.length,
          leaseMs: ms,
          lease,
        })
        return [...queued, ...range]
      })
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
      const [queued, lag] = await Promise.all([queuedStats(db), consumerLag(db, ANALYTICS)])
      const oldest = [queued.oldest, lag.oldestReceivedAt].filter((d): d is Date => d !== null)
      return {
        depth: queued.depth + lag.records,
        oldestEnqueuedAt:
          oldest.length === 0 ? null : new Date(Math.min(...oldest.map((d) => d.getTime()))),
      }
    },
  }
}
