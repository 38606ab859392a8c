import { randomUUID } from 'node:crypto'
import type { RetentionStore } from '@tis/ingest'
import { describe, expect, it } from 'vitest'
import {
  acceptAndProject,
  checkInOp,
  eventOp,
  monitorUpdate,
  projectAll,
  seedProject,
  spanOp,
  uniqueHash,
} from './store-fixtures'
import type { LoggedStore, StoreHarness } from './store-probe'

// Retention under a controllable clock: the pass's `now` is set by the test, so
// "30 days later" is a parameter, not a wait.

type Store = LoggedStore & RetentionStore
const DAY = 86_400_000
const NOW = new Date(Date.UTC(2026, 5, 1))
const daysAgo = (n: number) => new Date(NOW.getTime() - n * DAY)

/** A project with an issue of an old and a new event, old and new spans, check-ins and logs. */
async function seed(store: Store) {
  const { projectId } = await seedProject(store)
  const hash = uniqueHash()
  const staleHash = uniqueHash()
  const trace = randomUUID().replaceAll('-', '')
  const span = (d: number) =>
    spanOp(projectId, trace, {
      started_at: daysAgo(d).toISOString(),
      ended_at: daysAgo(d).toISOString(),
    })
  const ops = [
    eventOp(projectId, { occurredAt: daysAgo(40), issue: { hash } }),
    eventOp(projectId, { occurredAt: daysAgo(5), issue: { hash } }),
    eventOp(projectId, { occurredAt: daysAgo(50), issue: { hash: staleHash, title: 'Stale' } }),
    eventOp(projectId, { occurredAt: daysAgo(45) }),
    eventOp(projectId, { occurredAt: daysAgo(1) }),
    span(60),
    span(2),
    checkInOp(projectId, monitorUpdate('nightly', 'ok', daysAgo(35))),
    checkInOp(projectId, monitorUpdate('nightly', 'ok', daysAgo(3))),
  ]
  await acceptAndProject(store, [...ops, eventOp(projectId, { occurredAt: daysAgo(31) })])
  return { projectId, hash, staleHash }
}

/** Expiry of events, spans and check-ins; issue totals; overrides; dry runs. */
export function describeRetentionContract(h: () => StoreHarness) {
  describe('retention', () => {
    const store = () => h().store as Store
    const pass = (projectId: string, extra: { dryRun?: boolean; defaultDays?: number } = {}) =>
      store().expireTelemetry({
        now: NOW,
        defaultDays: extra.defaultDays ?? 30,
        batchSize: 2,
        projectId,
        ...(extra.dryRun === undefined ? {} : { dryRun: extra.dryRun }),
      })

    it('deletes what is older than the period, keeps the rest and the issue totals', async () => {
      const { probe } = h()
      const { projectId, hash, staleHash } = await seed(store())
      const before = await probe.issue(projectId, hash)
      const dry = await pass(projectId, { dryRun: true })
      expect(dry.projects).toEqual([
        expect.objectContaining({
          projectId,
          days: 30,
          events: 4,
          spans: 1,
          checkIns: 1,
          issues: 1,
        }),
      ])
      // A dry run deletes nothing.
      expect(await probe.count('events', projectId)).toBe(6)
      const report = await pass(projectId)
      expect(report.projects[0]).toMatchObject({
        days: 30,
        cutoff: daysAgo(30),
        events: 4,
        spans: 1,
        checkIns: 1,
        issues: 1,
      })
      expect(await probe.count('events', projectId)).toBe(2)
      expect(await probe.count('spans', projectId)).toBe(1)
      expect(await probe.count('check_ins', projectId)).toBe(1)
      // The issue keeps its count and first seen although its first event is gone.
      expect(await probe.issue(projectId, hash)).toEqual(before)
      const stale = await probe.issue(projectId, staleHash)
      expect(stale).toMatchObject({ count: 1, lastSeenAt: daysAgo(50) })
      const [marked] = await probe.query<{ expired: boolean }>(
        `select events_expired_at is not null as expired from issues
          where project_id = $1::uuid and hash = $2`,
        [projectId, staleHash],
      )
      expect(marked?.expired).toBe(true)
      // The monitor keeps its status.
      expect(await probe.monitor(projectId, 'nightly', 'production')).toMatchObject({
        status: 'ok',
      })
      // A second pass finds nothing.
      expect((await pass(projectId)).projects[0]).toMatchObject({
        events: 0,
        spans: 0,
        checkIns: 0,
        issues: 0,
      })
    })

    it('forgets the idempotency key of an expired record, so a resend is stored again', async () => {
      const { probe } = h()
      const logged = store()
      const { projectId } = await seedProject(logged)
      const keyed = { ...eventOp(projectId, { occurredAt: daysAgo(31) }), dedupe: true }
      const keys = () =>
        probe.query<{ n: number }>(
          'select count(*)::int as n from ingest_keys where key = $1::uuid',
          [keyed.id],
        )
      await logged.append([keyed])
      await projectAll(logged)
      expect(await keys()).toEqual([{ n: 1 }])
      expect((await pass(projectId)).projects[0]).toMatchObject({ events: 1 })
      expect(await keys()).toEqual([{ n: 0 }])
      const [again] = await logged.append([keyed])
      expect(again?.existing).toBeUndefined()
    })

    it("applies the project's own period over the default, and 0 keeps everything", async () => {
      const { probe } = h()
      const { projectId } = await seed(store())
      expect(await store().getProjectRetention(projectId)).toBeNull()
      expect(await store().setProjectRetention(projectId, 0)).toBe(true)
      expect(await store().getProjectRetention(projectId)).toBe(0)
      expect((await pass(projectId)).projects).toEqual([])
      expect(await probe.count('events', projectId)).toBe(6)
      await store().setProjectRetention(projectId, 4)
      expect((await pass(projectId, { defaultDays: 365 })).projects[0]).toMatchObject({ days: 4 })
      // Left: the log a day old (the error five days old went too), the span two days old.
      expect(await probe.count('events', projectId)).toBe(1)
      expect(await probe.count('spans', projectId)).toBe(1)
      await store().setProjectRetention(projectId, null)
      expect(await store().getProjectRetention(projectId)).toBeNull()
      expect(await store().setProjectRetention(randomUUID(), 5)).toBe(false)
    })

    it('reports what a project occupies', async () => {
      const { projectId } = await seed(store())
      const usage = await store().storageUsage(projectId)
      expect(usage.events.rows).toBe(6)
      expect(usage.spans.rows).toBe(2)
      expect(usage.checkIns.rows).toBe(2)
      expect(usage.events.bytes).toBeGreaterThan(0)
      expect(usage.artifacts).toEqual({ rows: 0, bytes: 0 })
      expect(usage.totalBytes).toBe(
        usage.events.bytes + usage.spans.bytes + usage.checkIns.bytes + usage.artifacts.bytes,
      )
    })

    it('estimates rows past the exact count from a sample of the table, never below the count', async () => {
      const { projectId } = await seed(store())
      // A small table is sampled whole: the estimate is its exact share.
      const usage = await store().storageUsage(projectId, { exactRowsUpTo: 3 })
      expect(usage.events.rows).toBe(6)
      expect(usage.spans.rows).toBe(2)
      const none = await store().storageUsage(projectId, { exactRowsUpTo: 0 })
      expect(none.events.rows).toBe(6)
      expect(none.checkIns.rows).toBe(2)
    })
  })
}
