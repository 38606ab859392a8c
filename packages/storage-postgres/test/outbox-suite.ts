import { randomUUID } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import type { OutboxEventRow, OutboxSpanRow } from '@tis/ingest'
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

/** Two stores over one database: one queueing for analytics, one not. */
export interface OutboxStores {
  readonly queueing: PostgresIngestStore
  readonly plain: PostgresIngestStore
  close(): Promise<void>
}

/**
 * The analytics outbox table of one driver, filled by `writeBatch` outside the ingest log:
 * queueing in the write transaction, per-row leases, retries. (The log's records are exported
 * by cursor: analytics-cursor-suite.ts.)
 */
export function describeOutbox(name: string, factory: () => Promise<OutboxStores>) {
  describe(`${name} analytics outbox`, () => {
    let stores: OutboxStores
    beforeAll(async () => {
      stores = await factory()
    }, 60_000)
    afterAll(() => stores?.close())

    /** Empties the queue (tests share one database). */
    async function drain() {
      const { outbox } = stores.queueing
      for (;;) {
        const claim = await outbox.claim(1000, 60_000)
        if (claim.records.length === 0) return
        await outbox.complete(claim)
      }
    }

    it('queues events and spans with their stored rows only while on, in the write transaction', async () => {
      await drain()
      const { queueing, plain } = stores
      const { projectId } = await seedProject(queueing)
      await plain.writeBatch([eventOp(projectId)])
      expect(await queueing.outbox.stats()).toEqual({ depth: 0, oldestEnqueuedAt: null })

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
      const [written] = await queueing.writeBatch([error, span, checkIn])
      const stats = await queueing.outbox.stats()
      expect(stats.depth).toBe(2)
      expect(stats.oldestEnqueuedAt).toBeInstanceOf(Date)

      const claim = await queueing.outbox.claim(10, 60_000)
      expect(claim.records.map((r) => r.kind)).toEqual(['event', 'span'])
      const [ev, sp] = claim.records
      expect(ev!.attempts).toBe(0)
      const row = ev!.row as OutboxEventRow
      const issues = await queueing.listIssues({ projectId, status: null, limit: 10 })
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
      const spanRow = sp!.row as OutboxSpanRow
      expect(spanRow).toMatchObject({ id: span.id, trace_id: 'trace-1', name: 'GET /' })
      expect(Date.parse(spanRow.started_at)).toBe(at(0).getTime())
      await queueing.outbox.complete(claim)
      expect((await queueing.outbox.stats()).depth).toBe(0)
    })

    it('queues nothing when the batch rolls back', async () => {
      await drain()
      const missingProject = '00000000-0000-4000-8000-000000000000'
      await expect(
        stores.queueing.writeBatch([eventOp(missingProject), spanOp(missingProject, 't')]),
      ).rejects.toThrow()
      expect((await stores.queueing.outbox.stats()).depth).toBe(0)
    })

    it('queues nothing for an all-or-nothing batch left unwritten by a conflict', async () => {
      await drain()
      const { queueing } = stores
      const one = await seedProject(queueing)
      const two = await seedProject(queueing)
      const taken = { ...eventOp(one.projectId), dedupe: true }
      await queueing.writeBatch([taken])
      await drain()
      const batch = [
        eventOp(two.projectId),
        spanOp(two.projectId, 't'),
        { ...taken, projectId: two.projectId },
      ]
      const results = await queueing.writeBatch(batch, { allOrNothing: true })
      expect(results.map((r) => r.existing?.projectId ?? null)).toEqual([null, null, one.projectId])
      expect((await queueing.outbox.stats()).depth).toBe(0)
    })

    it('leases disjoint records; complete and release act on their own lease only', async () => {
      await drain()
      const { queueing } = stores
      const { projectId } = await seedProject(queueing)
      await queueing.writeBatch(Array.from({ length: 6 }, () => eventOp(projectId)))
      const [a, b] = await Promise.all([
        queueing.outbox.claim(3, 60_000),
        queueing.outbox.claim(3, 60_000),
      ])
      const seqs = [...a.records, ...b.records].map((r) => r.seq)
      expect(new Set(seqs).size).toBe(6)
      expect(await queueing.outbox.claim(3, 60_000)).toMatchObject({ records: [] })

      // Completing under an unknown lease removes nothing; a's own lease removes a's records.
      await queueing.outbox.complete({ lease: randomUUID(), records: a.records })
      expect((await queueing.outbox.stats()).depth).toBe(6)
      await queueing.outbox.complete(a)
      expect((await queueing.outbox.stats()).depth).toBe(3)

      // Released records are not claimable before retryAt (they stay queued: later tests count
      // from a baseline).
      await queueing.outbox.release(b, new Date(Date.now() + 600_000))
      expect((await queueing.outbox.claim(10, 60_000)).records).toEqual([])
      expect((await queueing.outbox.stats()).depth).toBe(3)
    })

    it('gives back records whose lease ran out, counted as a retry', async () => {
      await drain()
      const { queueing } = stores
      const base = (await queueing.outbox.stats()).depth
      const { projectId } = await seedProject(queueing)
      await queueing.writeBatch([eventOp(projectId), eventOp(projectId)])
      const first = await queueing.outbox.claim(10, 50)
      expect(first.records.map((r) => r.attempts)).toEqual([0, 0])
      await sleep(120)
      const again = await queueing.outbox.claim(10, 60_000)
      expect(again.records.map((r) => r.seq)).toEqual(first.records.map((r) => r.seq))
      expect(again.records.map((r) => r.attempts)).toEqual([1, 1])
      // The first drainer's late complete no longer matches the new lease.
      await queueing.outbox.complete(first)
      expect((await queueing.outbox.stats()).depth).toBe(base + 2)
      await queueing.outbox.release(again)
      const third = await queueing.outbox.claim(10, 60_000)
      expect(third.records.map((r) => r.attempts)).toEqual([2, 2])
      await queueing.outbox.complete(third)
      expect((await queueing.outbox.stats()).depth).toBe(base)
    })
  })
}
