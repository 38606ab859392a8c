import { randomUUID } from 'node:crypto'
import type { WriteOp } from '@tis/ingest'
import { describe, expect, it } from 'vitest'
import {
  acceptAndProject,
  at,
  checkInOp,
  eventOp,
  monitorUpdate,
  seedProject,
  spanOp,
  uniqueHash,
} from './store-fixtures'
import type { StoreHarness } from './store-probe'

/** Marks an op's id as client-given: the store must report a repeat's `existing` record. */
const dedupe = <T extends WriteOp>(op: T): T => ({ ...op, dedupe: true })

/** A result that reports an existing record: nothing written, the stored identity. */
const known = (projectId: string, id: string, legacyId: number | null) => ({
  id,
  legacyId,
  existing: { projectId, id, legacyId },
})

/**
 * Acceptance of `dedupe` ops: idempotent ingest. The store reports facts (the
 * `existing` record and its project); the engine decides duplicate or conflict.
 */
export function describeDedupeContract(h: () => StoreHarness) {
  describe('acceptance deduplication', () => {
    it('reports a repeat of a stored event as existing, writing the rest of the batch', async () => {
      const { store, probe } = h()
      const { projectId } = await seedProject(store)
      const hash = uniqueHash()
      const first = dedupe(eventOp(projectId, { issue: { hash } }))
      const [stored] = await acceptAndProject(store, [first])
      const fresh = eventOp(projectId)
      const results = await acceptAndProject(store, [{ ...first, receivedAt: at(9) }, fresh])
      expect(results).toEqual([
        known(projectId, first.id, stored!.legacyId),
        { id: fresh.id, legacyId: expect.any(Number) },
      ])
      expect((await probe.issue(projectId, hash))?.count).toBe(1)
      expect(await probe.count('events', projectId)).toBe(2)
    })

    it('writes an id repeated within one batch once; the repeat reports it as existing', async () => {
      const { store, probe } = h()
      const { projectId } = await seedProject(store)
      const hash = uniqueHash()
      const op = dedupe(eventOp(projectId, { issue: { hash } }))
      const [a, b] = await acceptAndProject(store, [op, { ...op }])
      expect(b).toEqual(known(projectId, a!.id, a!.legacyId))
      expect(a?.existing).toBeUndefined()
      expect((await probe.issue(projectId, hash))?.count).toBe(1)
      expect(await probe.count('events', projectId)).toBe(1)
    })

    it("reports another project's record under the id, with that project, and writes nothing for it", async () => {
      const { store, probe } = h()
      const one = await seedProject(store)
      const two = await seedProject(store)
      const op = dedupe(eventOp(one.projectId))
      const [stored] = await acceptAndProject(store, [op])
      const [result] = await acceptAndProject(store, [{ ...op, projectId: two.projectId }])
      expect(result).toEqual(known(one.projectId, op.id, stored!.legacyId))
      expect(await probe.count('events', two.projectId)).toBe(0)
    })

    it("with allOrNothing, another project's id leaves the whole batch unwritten", async () => {
      const { store, probe } = h()
      const one = await seedProject(store)
      const two = await seedProject(store)
      const taken = dedupe(eventOp(one.projectId))
      const stored = dedupe(eventOp(two.projectId))
      const [takenResult, storedResult] = await acceptAndProject(store, [taken, stored])
      const hash = uniqueHash()
      const slug = `m-${randomUUID()}`
      const fresh = dedupe(eventOp(two.projectId, { issue: { hash } }))
      const checkIn = dedupe(checkInOp(two.projectId, monitorUpdate(slug, 'ok', at(1))))
      const batch = [fresh, { ...taken, projectId: two.projectId }, stored, checkIn]
      const results = await acceptAndProject(store, batch, { allOrNothing: true })
      expect(results).toEqual([
        { id: fresh.id, legacyId: null },
        known(one.projectId, taken.id, takenResult!.legacyId),
        known(two.projectId, stored.id, storedResult!.legacyId),
        { id: checkIn.id, legacyId: null },
      ])
      expect(await probe.count('events', two.projectId)).toBe(1)
      expect(await probe.issue(two.projectId, hash)).toBeNull()
      expect(await probe.monitor(two.projectId, slug, 'production')).toBeNull()
      expect(await probe.count('check_ins', two.projectId)).toBe(0)
      // Without a conflict the same option writes the batch as usual.
      const [written] = await acceptAndProject(store, [fresh], { allOrNothing: true })
      expect(written).toEqual({ id: fresh.id, legacyId: expect.any(Number) })
      expect((await probe.issue(two.projectId, hash))?.count).toBe(1)
    })

    it('identifies spans by (trace_id, span_id) within the project', async () => {
      const { store, probe } = h()
      const { projectId } = await seedProject(store)
      const span = dedupe(spanOp(projectId, randomUUID()))
      const [stored] = await acceptAndProject(store, [span])
      // Same trace and span ids, another record id (e.g. a retry without event_id).
      const [again] = await acceptAndProject(store, [{ ...span, id: randomUUID() }])
      expect(again).toEqual(known(projectId, span.id, stored!.legacyId))
      expect(await probe.count('spans', projectId)).toBe(1)
      // In another project the same trace and span ids are a new span.
      const other = await seedProject(store)
      const [elsewhere] = await acceptAndProject(store, [
        { ...span, id: randomUUID(), projectId: other.projectId },
      ])
      expect(elsewhere?.existing).toBeUndefined()
    })

    it('counts a repeated check-in once on its monitor', async () => {
      const { store, probe } = h()
      const { projectId } = await seedProject(store)
      const slug = `m-${randomUUID()}`
      const op = dedupe(checkInOp(projectId, monitorUpdate(slug, 'ok', at(1))))
      await acceptAndProject(store, [op])
      const [again] = await acceptAndProject(store, [op])
      expect(again).toEqual(known(projectId, op.id, null))
      expect((await probe.monitor(projectId, slug, 'production'))?.checkInCount).toBe(1)
      expect(await probe.count('check_ins', projectId)).toBe(1)
    })

    it('stores one of two concurrent batches carrying the same new id; the other reports it as existing', async () => {
      const { store, probe } = h()
      const { projectId } = await seedProject(store)
      const hash = uniqueHash()
      const op = dedupe(eventOp(projectId, { issue: { hash } }))
      const results = await Promise.all([
        acceptAndProject(store, [op, eventOp(projectId)]),
        acceptAndProject(store, [{ ...op }, eventOp(projectId)]),
      ])
      const firsts = results.map((r) => r[0]!)
      expect(firsts.filter((r) => r.existing?.projectId === projectId)).toHaveLength(1)
      expect(new Set(firsts.map((r) => r.legacyId)).size).toBe(1)
      expect((await probe.issue(projectId, hash))?.count).toBe(1)
      expect(await probe.count('events', projectId)).toBe(3)
    })
  })
}
