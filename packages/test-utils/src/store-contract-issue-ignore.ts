import { describe, expect, it } from 'vitest'
import { seedInbox } from './store-contract-issue-search'
import { changeOne } from './store-contract-issue-triage'
import { acceptAndProject, at, eventOp } from './store-fixtures'
import type { StoreHarness } from './store-probe'

/** Ignore conditions, as the projection meets them (docs/issues.md#ignore-until). */
export function describeIssueIgnoreContract(h: () => StoreHarness) {
  describe('ignore conditions', () => {
    it('reopens an ignored issue once its condition is met, once however large the burst', async () => {
      const { store } = h()
      const { projectId, userId, hashes, ids } = await seedInbox(store)
      const by = { userId, at: at(300) }
      // Each event received when it occurred unless said otherwise: times in the past, so the
      // log's daily partitions (and the log tests that prepare today's) never see today.
      const ev = (hash: string, occurredAt: Date, user?: string, receivedAt = occurredAt) => ({
        ...eventOp(projectId, {
          issue: { hash, title: 'x' },
          occurredAt,
          event: user ? { user_id: user } : {},
        }),
        receivedAt,
      })
      const many = (n: number, hash: string, occurredAt: Date, receivedAt = occurredAt) =>
        Array.from({ length: n }, () => ev(hash, occurredAt, undefined, receivedAt))
      const issue = async (id: string) => (await store.findIssue(projectId, id))!
      const ignored = await changeOne(
        store,
        projectId,
        ids.timeout,
        { status: 'ignored', ignoreUntil: { count: 3 } },
        by,
      )
      expect(ignored).toMatchObject({ status: 'ignored', ignoreUntil: { count: 3 } })
      await acceptAndProject(store, many(2, hashes.timeout, at(301)))
      expect((await issue(ids.timeout)).status).toBe('ignored')
      // The third more event meets it; the burst it is in reopens the issue once.
      await acceptAndProject(store, many(5, hashes.timeout, at(302)))
      expect(await issue(ids.timeout)).toMatchObject({
        status: 'unresolved',
        ignoreUntil: null,
        regressionCount: 1,
      })
      const met = (await store.listIssueHistory({ projectId, issueId: ids.timeout, limit: 20 }))
        .filter((e) => e.kind === 'ignore_met')
        .map((e) => [e.actor, e.data])
      expect(met).toEqual([[null, { condition: { count: 3 } }]])

      // Users: typeError has one (42); two more are needed.
      await changeOne(
        store,
        projectId,
        ids.typeError,
        { status: 'ignored', ignoreUntil: { users: 2 } },
        by,
      )
      await acceptAndProject(store, [
        ev(hashes.typeError, at(303), '42'),
        ev(hashes.typeError, at(303), 'n1'),
      ])
      expect((await issue(ids.typeError)).status).toBe('ignored')
      await acceptAndProject(store, [ev(hashes.typeError, at(304), 'n2')])
      expect((await issue(ids.typeError)).status).toBe('unresolved')

      // A time: the first event received after it.
      await changeOne(
        store,
        projectId,
        ids.warning,
        { status: 'ignored', ignoreUntil: { until: at(400) } },
        by,
      )
      expect((await issue(ids.warning)).ignoreUntil).toEqual({ until: at(400) })
      await acceptAndProject(store, [ev(hashes.warning, at(399))])
      expect((await issue(ids.warning)).status).toBe('ignored')
      await acceptAndProject(store, [ev(hashes.warning, at(100), undefined, at(401))])
      expect((await issue(ids.warning)).status).toBe('unresolved')

      // A rate: events that occurred before the window do not count toward it.
      await changeOne(
        store,
        projectId,
        ids.flaky,
        { status: 'ignored', ignoreUntil: { count: 2, windowSeconds: 3600 } },
        by,
      )
      await acceptAndProject(store, many(3, hashes.flaky, at(306), at(10_000)))
      expect((await issue(ids.flaky)).status).toBe('ignored')
      await acceptAndProject(store, many(2, hashes.flaky, at(9_999), at(10_000)))
      expect((await issue(ids.flaky)).status).toBe('unresolved')

      // Another status clears the condition.
      await changeOne(
        store,
        projectId,
        ids.flaky,
        { status: 'ignored', ignoreUntil: { count: 9 } },
        by,
      )
      expect(
        (await changeOne(store, projectId, ids.flaky, { status: 'resolved' }, by))?.ignoreUntil,
      ).toBeNull()
    })
  })
}
