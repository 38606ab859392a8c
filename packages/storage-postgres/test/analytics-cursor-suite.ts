import { setTimeout as sleep } from 'node:timers/promises'
import type { OutboxClaim, OutboxEventRow, OutboxSpanRow } from '@tis/ingest'
import { projectAll, projectRound } from '@tis/test-utils/store-contract'
import {
  at,
  checkInOp,
  eventOp,
  monitorUpdate,
  seedProject,
  spanOp,
  uniqueHash,
} from '@tis/test-utils/store-fixtures'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PostgresIngestStore } from '../src/index'

/** A database whose analytics store is enabled (`analytics` migrated it), and a plain store. */
export interface AnalyticsCursorStores {
  readonly analytics: PostgresIngestStore
  readonly plain: PostgresIngestStore
  close(): Promise<void>
}

const LONG = 60_000
const seqs = (claim: OutboxClaim) => claim.records.map((r) => r.seq)

/**
 * The analytics export that follows the projection by cursor (issue 19), on one driver: what it
 * exports, the range lease, retries, stats and the log partitions it holds.
 */
export function describeAnalyticsCursor(
  name: string,
  factory: () => Promise<AnalyticsCursorStores>,
) {
  describe(`${name} analytics cursor`, () => {
    let stores: AnalyticsCursorStores
    beforeAll(async () => {
      stores = await factory()
    }, 60_000)
    afterAll(() => stores?.close())

    /** Projects and exports everything (tests share one database). */
    async function drain() {
      const { analytics } = stores
      await projectAll(analytics)
      for (;;) {
        const claim = await analytics.outbox.claim(1000, LONG)
        if (claim.records.length === 0) return
        await analytics.outbox.complete(claim)
      }
    }

    it('exports the stored rows of projected events and spans, not check-ins, once projected', async () => {
      await drain()
      const { analytics } = stores
      const { projectId } = await seedProject(analytics)
      const hash = uniqueHash()
      const error = eventOp(projectId, {
        occurredAt: at(5),
        issue: { hash, title: 'Boom' },
        event: {
          environment: 'prod',
          transaction_name: 'GET /x',
          duration_ms: 12.5,
          context: { status_code: 503, tags: { region: 'eu' } },
        },
      })
      const span = spanOp(projectId, 'trace-1')
      const checkIn = checkInOp(projectId, monitorUpdate('nightly', 'ok', at(6)))
      const [written] = await analytics.append([error, span, checkIn])
      // Accepted, not projected: counted (check-in included), but nothing to claim yet.
      expect(await analytics.outbox.stats()).toEqual({ depth: 3, oldestEnqueuedAt: at(0) })
      expect((await analytics.outbox.claim(10, LONG)).records).toEqual([])

      await projectAll(analytics)
      const claim = await analytics.outbox.claim(10, LONG)
      expect(claim.records.map((r) => [r.kind, r.attempts])).toEqual([
        ['event', 0],
        ['span', 0],
      ])
      const [ev, sp] = claim.records
      const row = ev!.row as OutboxEventRow
      const issues = await analytics.listIssues({ projectId, status: null, limit: 10 })
      expect(row).toMatchObject({
        id: written!.id,
        project_id: projectId,
        event_type: 'error',
        message: 'Boom',
        environment: 'prod',
        transaction_name: 'GET /x',
        duration_ms: 12.5,
        issue_id: issues[0]!.id,
      })
      expect(Date.parse(row.occurred_at)).toBe(at(5).getTime())
      expect(row.payload['context']).toEqual({ status_code: 503, tags: { region: 'eu' } })
      expect(row).not.toHaveProperty('legacy_id')
      expect(ev!.seq).toBe(String(written!.legacyId))
      const spanRow = sp!.row as OutboxSpanRow
      expect(spanRow).toMatchObject({ id: span.id, trace_id: 'trace-1', name: 'GET /' })
      expect(Date.parse(spanRow.started_at)).toBe(at(0).getTime())
      await analytics.outbox.complete(claim)
      expect(await analytics.outbox.stats()).toEqual({ depth: 0, oldestEnqueuedAt: null })
      expect((await analytics.outbox.claim(10, LONG)).records).toEqual([])
    })

    it('never passes the projection', async () => {
      await drain()
      const { analytics } = stores
      const { projectId } = await seedProject(analytics)
      await analytics.append([eventOp(projectId), eventOp(projectId), eventOp(projectId)])
      expect((await projectRound(analytics, 2)).projected).toBe(2)
      const first = await analytics.outbox.claim(10, LONG)
      expect(first.records).toHaveLength(2)
      await analytics.outbox.complete(first)
      expect((await analytics.outbox.claim(10, LONG)).records).toEqual([])
      expect((await analytics.outbox.stats()).depth).toBe(1)
      await projectAll(analytics)
      const rest = await analytics.outbox.claim(10, LONG)
      expect(rest.records).toHaveLength(1)
      expect(BigInt(rest.records[0]!.seq)).toBeGreaterThan(BigInt(first.records[1]!.seq))
      await analytics.outbox.complete(rest)
    })

    it('leases one range at a time: a second drainer gets nothing while the lease lasts', async () => {
      await drain()
      const { analytics, plain } = stores
      const { projectId } = await seedProject(analytics)
      await analytics.append(Array.from({ length: 6 }, () => eventOp(projectId)))
      await projectAll(analytics)
      // Two drainers at once (the plain store's outbox is another process's view of the same
      // consumer): one range, never the same entries twice.
      const [a, b] = await Promise.all([
        analytics.outbox.claim(3, LONG),
        plain.outbox.claim(3, LONG),
      ])
      const [held, none] = a.records.length > 0 ? [a, b] : [b, a]
      expect(held.records).toHaveLength(3)
      expect(none.records).toEqual([])
      expect((await analytics.outbox.claim(3, LONG)).records).toEqual([])

      // Another lease's complete moves nothing; the holder's moves the cursor past its range.
      await analytics.outbox.complete({ lease: none.lease, records: held.records })
      expect((await analytics.outbox.stats()).depth).toBe(6)
      await analytics.outbox.complete(held)
      expect((await analytics.outbox.stats()).depth).toBe(3)
      const next = await analytics.outbox.claim(3, LONG)
      expect(next.records.map((r) => BigInt(r.seq) > BigInt(held.records[2]!.seq))).toEqual([
        true,
        true,
        true,
      ])
      await analytics.outbox.complete(next)
    })

    it('hands an expired lease over as a retry; the late complete moves nothing', async () => {
      await drain()
      const { analytics } = stores
      const { projectId } = await seedProject(analytics)
      await analytics.append([eventOp(projectId), eventOp(projectId)])
      await projectAll(analytics)
      const first = await analytics.outbox.claim(10, 50)
      expect(first.records.map((r) => r.attempts)).toEqual([0, 0])
      await sleep(120)
      const again = await analytics.outbox.claim(10, LONG)
      expect(seqs(again)).toEqual(seqs(first))
      expect(again.records.map((r) => r.attempts)).toEqual([1, 1])
      await analytics.outbox.complete(first)
      expect((await analytics.outbox.stats()).depth).toBe(2)
      await analytics.outbox.complete(again)
      expect((await analytics.outbox.stats()).depth).toBe(0)
    })

    it('marks every entry a lost range covered as a retry, whatever the next claim size', async () => {
      await drain()
      const { analytics } = stores
      const { projectId } = await seedProject(analytics)
      await analytics.append(Array.from({ length: 4 }, () => eventOp(projectId)))
      await projectAll(analytics)
      const lost = await analytics.outbox.claim(4, 50)
      await sleep(120)
      // A drainer with smaller batches takes over: the first drainer may have sent all four.
      const head = await analytics.outbox.claim(2, LONG)
      expect(head.records.map((r) => r.attempts)).toEqual([1, 1])
      await analytics.outbox.complete(head)
      const tail = await analytics.outbox.claim(2, LONG)
      expect(seqs(tail)).toEqual(seqs(lost).slice(2))
      expect(tail.records.map((r) => r.attempts)).toEqual([1, 1])
      await analytics.outbox.complete(tail)
      await analytics.append([eventOp(projectId)])
      await projectAll(analytics)
      const fresh = await analytics.outbox.claim(2, LONG)
      expect(fresh.records.map((r) => r.attempts)).toEqual([0])
      await analytics.outbox.complete(fresh)
    })

    it('holds a released range until retryAt, then hands it out again as a retry', async () => {
      await drain()
      const { analytics } = stores
      const { projectId } = await seedProject(analytics)
      await analytics.append([eventOp(projectId)])
      await projectAll(analytics)
      const first = await analytics.outbox.claim(10, LONG)
      await analytics.outbox.release(first, new Date(Date.now() + 400))
      expect((await analytics.outbox.claim(10, LONG)).records).toEqual([])
      expect((await analytics.outbox.stats()).depth).toBe(1)
      await sleep(500)
      const again = await analytics.outbox.claim(10, LONG)
      expect(seqs(again)).toEqual(seqs(first))
      expect(again.records.map((r) => r.attempts)).toEqual([1])
      await analytics.outbox.complete(again)
      expect((await analytics.outbox.stats()).depth).toBe(0)
    })

    it('passes ranges of check-ins without a lease', async () => {
      await drain()
      const { analytics } = stores
      const { projectId } = await seedProject(analytics)
      await analytics.append(
        Array.from({ length: 3 }, (_, i) =>
          checkInOp(projectId, monitorUpdate(`job-${i}`, 'ok', at(i))),
        ),
      )
      await projectAll(analytics)
      expect((await analytics.outbox.stats()).depth).toBe(3)
      expect((await analytics.outbox.claim(2, LONG)).records).toEqual([])
      expect((await analytics.outbox.stats()).depth).toBe(0)
    })

    it('exports from the head of the log on when attached again after a detach', async () => {
      await drain()
      const { analytics } = stores
      const { projectId } = await seedProject(analytics)
      expect(await analytics.detachAnalytics()).toBe(true)
      expect(await analytics.detachAnalytics()).toBe(false)
      const before = eventOp(projectId)
      await analytics.append([before])
      expect((await analytics.outbox.stats()).depth).toBe(0)
      await analytics.migrate()
      const after = eventOp(projectId)
      await analytics.append([after])
      await projectAll(analytics)
      const claim = await analytics.outbox.claim(10, LONG)
      expect(claim.records.map((r) => (r.kind === 'session_minute' ? null : r.row.id))).toEqual([
        after.id,
      ])
      await analytics.outbox.complete(claim)
    })

    it('keeps the log partitions the export has not passed, and only those', async () => {
      await drain()
      const { analytics } = stores
      const { projectId } = await seedProject(analytics)
      const yesterday = new Date(Date.now() - 86_400_000)
      const name = `ingest_log_${yesterday.toISOString().slice(0, 10).replaceAll('-', '')}`
      await analytics.maintainLog(yesterday)
      await analytics.append([{ ...eventOp(projectId), receivedAt: yesterday }])
      await projectAll(analytics)
      // Projected, not exported: the analytics consumer still needs yesterday's entry.
      expect((await analytics.maintainLog(new Date())).dropped).toEqual([])
      await drain()
      expect((await analytics.maintainLog(new Date())).dropped).toEqual([name])
    })
  })
}
