import { describe, expect, it } from 'vitest'
import { acceptAndProject, at, eventOp, seedProject, uniqueHash } from './store-fixtures'
import type { StoreHarness } from './store-probe'

/** The issue inbox: order, status filter and keyset cursor, status changes, regressions. */
export function describeIssueReadsContract(h: () => StoreHarness) {
  describe('issue reads and status', () => {
    it('lists issues by (last_seen_at desc, id desc), by status, and after a keyset cursor', async () => {
      const { store } = h()
      const { projectId } = await seedProject(store)
      const hashes = [uniqueHash(), uniqueHash(), uniqueHash()]
      await acceptAndProject(
        store,
        hashes.map((hash, n) => eventOp(projectId, { issue: { hash }, occurredAt: at(n % 2) })),
      )
      const all = await store.listIssues({ projectId, status: null, limit: 10 })
      expect(all).toHaveLength(3)
      const keys = all.map((i) => [i.lastSeenAt.getTime(), i.id] as const)
      const sorted = [...keys].sort((a, b) => b[0] - a[0] || (a[1] < b[1] ? 1 : -1))
      expect(keys).toEqual(sorted)
      const first = all[0]!
      const rest = await store.listIssues({
        projectId,
        status: 'unresolved',
        after: { at: first.lastSeenAt, id: first.id },
        limit: 10,
      })
      expect(rest.map((i) => i.id)).toEqual(all.slice(1).map((i) => i.id))
      expect(await store.listIssues({ projectId, status: 'resolved', limit: 10 })).toEqual([])
    })

    it('finds and updates an issue only within its project', async () => {
      const { store } = h()
      const { projectId } = await seedProject(store)
      const other = await seedProject(store)
      await acceptAndProject(store, [eventOp(projectId, { issue: { hash: uniqueHash() } })])
      const [issue] = await store.listIssues({ projectId, status: null, limit: 1 })
      expect(await store.findIssue(projectId, issue!.id)).toEqual(issue)
      expect(await store.findIssue(other.projectId, issue!.id)).toBeNull()
      expect(await store.findIssue(projectId, 'not-a-uuid')).toBeNull()
      expect(await store.setIssueStatus(other.projectId, issue!.id, 'resolved')).toBeNull()
      const resolved = await store.setIssueStatus(projectId, issue!.id, 'resolved')
      expect(resolved).toMatchObject({ id: issue!.id, status: 'resolved', regressionCount: 0 })
    })

    it('reopens a resolved issue on a new occurrence as a regression in that release', async () => {
      const { store } = h()
      const { projectId } = await seedProject(store)
      const hash = uniqueHash()
      await acceptAndProject(store, [eventOp(projectId, { issue: { hash }, release: 'v1' })])
      const [issue] = await store.listIssues({ projectId, status: null, limit: 1 })
      await store.setIssueStatus(projectId, issue!.id, 'resolved')
      await acceptAndProject(store, [
        eventOp(projectId, { issue: { hash }, release: 'v2', occurredAt: at(5) }),
        eventOp(projectId, { issue: { hash }, release: 'v3', occurredAt: at(6) }),
      ])
      expect(await store.findIssue(projectId, issue!.id)).toMatchObject({
        status: 'unresolved',
        count: 3,
        regressionCount: 1,
        regressedInRelease: 'v3',
      })
      // Already unresolved: a further occurrence is no new regression.
      await acceptAndProject(store, [eventOp(projectId, { issue: { hash }, release: 'v4' })])
      expect(await store.findIssue(projectId, issue!.id)).toMatchObject({
        count: 4,
        regressionCount: 1,
        regressedInRelease: 'v3',
      })
    })

    it('keeps an ignored issue ignored while it keeps counting', async () => {
      const { store } = h()
      const { projectId } = await seedProject(store)
      const hash = uniqueHash()
      await acceptAndProject(store, [eventOp(projectId, { issue: { hash } })])
      const [issue] = await store.listIssues({ projectId, status: null, limit: 1 })
      await store.setIssueStatus(projectId, issue!.id, 'ignored')
      await acceptAndProject(store, [eventOp(projectId, { issue: { hash }, occurredAt: at(9) })])
      expect(await store.findIssue(projectId, issue!.id)).toMatchObject({
        status: 'ignored',
        count: 2,
        regressionCount: 0,
        regressedInRelease: null,
        lastSeenAt: at(9),
      })
    })
  })
}
