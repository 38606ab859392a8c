import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { seedInbox } from './store-contract-issue-search'
import { changeOne } from './store-contract-issue-triage'
import { acceptAndProject, at, eventOp, projectAll, seedProject } from './store-fixtures'
import type { StoreHarness } from './store-probe'

type Store = StoreHarness['store']

/** `n` error events of the fingerprint `hash` (received when they occurred, in the past). */
const errors = (projectId: string, hash: string, n: number, s: number, user?: string) =>
  Array.from({ length: n }, () =>
    eventOp(projectId, {
      issue: { hash, title: 'x' },
      occurredAt: at(s),
      event: user ? { user_id: user } : {},
    }),
  )

/** The project's events of `issueId`, all of them. */
const eventsOf = async (store: Store, projectId: string, issueId: string) =>
  store.listEvents({ projectId, issueId, limit: 200 })

/** Merging issues (docs/issues.md#merging-issues). */
export function describeIssueMergeContract(h: () => StoreHarness) {
  describe('merging issues', () => {
    it('keeps the issue with the most events, adding up counts, users, events and discussion', async () => {
      const { store } = h()
      const { projectId, userId, hashes, ids } = await seedInbox(store)
      const by = { userId, at: at(300) }
      await store.addIssueComment({
        id: randomUUID(),
        projectId,
        issueId: ids.typeError,
        authorId: userId,
        body: 'seen on staging',
        createdAt: at(200),
      })
      const result = await store.mergeIssues(
        projectId,
        [ids.typeError, ids.warning, ids.timeout],
        null,
        by,
      )
      if (!result.ok) throw new Error(`merge refused ${result.missing}`)
      // timeout has 3 events (typeError 2, warning 1).
      expect(result.issue).toMatchObject({
        id: ids.timeout,
        count: 6,
        users: 3,
        firstSeenAt: at(5),
        lastSeenAt: at(40),
        level: 'warning',
        firstRelease: '1.1',
        lastRelease: '1.0',
      })
      expect([...result.merged].sort()).toEqual([ids.typeError, ids.warning].sort())
      expect(await store.findIssue(projectId, ids.typeError)).toBeNull()
      expect(await store.findMergedIssue(projectId, ids.typeError)).toBe(ids.timeout)
      expect(await store.findMergedIssue(projectId, ids.timeout)).toBeNull()
      expect(await eventsOf(store, projectId, ids.timeout)).toHaveLength(6)
      const comments = await store.listIssueComments({ projectId, issueId: ids.timeout, limit: 9 })
      expect(comments.map((c) => c.body)).toEqual(['seen on staging'])
      const history = await store.listIssueHistory({ projectId, issueId: ids.timeout, limit: 20 })
      const merge = history.find((e) => e.kind === 'merge')!
      expect(merge.actor).toMatch(/@/)
      expect(merge.createdAt).toEqual(at(300))
      expect(merge.data['merged']).toEqual(
        [
          { id: ids.typeError, title: 'TypeError: x is undefined', count: 2 },
          { id: ids.warning, title: 'Slow query 50%_done', count: 1 },
        ].sort((a, b) => a.id.localeCompare(b.id)),
      )

      // Later events of a merged fingerprint belong to the kept issue; no issue comes back.
      await acceptAndProject(store, errors(projectId, hashes.typeError, 2, 50, 'n9'))
      expect(await store.findIssue(projectId, ids.timeout)).toMatchObject({
        count: 8,
        users: 4,
        lastSeenAt: at(50),
      })
      const all = await store.listIssues({ projectId, status: null, limit: 10 })
      expect(all.map((i) => i.id).sort()).toEqual([ids.timeout, ids.flaky].sort())
      expect(await eventsOf(store, projectId, ids.timeout)).toHaveLength(8)

      // A kept issue merged in turn hands on what was merged into it; `into` picks the kept one.
      const again = await store.mergeIssues(projectId, [ids.flaky, ids.typeError], ids.flaky, by)
      expect(again).toMatchObject({ ok: true, issue: { id: ids.flaky, count: 10 } })
      expect(again.ok && again.merged).toEqual([ids.timeout])
      expect(await store.findMergedIssue(projectId, ids.typeError)).toBe(ids.flaky)
      expect(await store.findMergedIssue(projectId, ids.timeout)).toBe(ids.flaky)
      await acceptAndProject(store, errors(projectId, hashes.warning, 1, 60))
      expect(await store.findIssue(projectId, ids.flaky)).toMatchObject({ count: 11 })

      // A merge retried: every id stands for the same issue, and nothing changes.
      const retried = await store.mergeIssues(projectId, [ids.timeout, ids.warning], null, by)
      expect(retried).toMatchObject({ ok: true, issue: { id: ids.flaky, count: 11 }, merged: [] })
    })

    it('refuses ids that are not issues of the project, changing nothing', async () => {
      const { store } = h()
      const { projectId, userId, ids } = await seedInbox(store)
      const other = await seedInbox(store)
      const by = { userId, at: at(300) }
      const unknown = randomUUID()
      expect(await store.mergeIssues(projectId, [ids.timeout, unknown], null, by)).toEqual({
        ok: false,
        missing: unknown,
      })
      expect(
        await store.mergeIssues(projectId, [ids.timeout, other.ids.timeout], null, by),
      ).toEqual({ ok: false, missing: other.ids.timeout })
      expect(await store.mergeIssues(projectId, [ids.timeout, 'nope'], null, by)).toEqual({
        ok: false,
        missing: 'nope',
      })
      expect(await store.findIssue(projectId, ids.timeout)).toMatchObject({ count: 3 })
      expect(await store.findIssue(other.projectId, other.ids.timeout)).toMatchObject({ count: 3 })
      expect(await store.findMergedIssue(other.projectId, ids.timeout)).toBeNull()
    })

    it('counts an ignore condition from the merge on: merged events are not new ones', async () => {
      const { store } = h()
      const { projectId, userId, hashes, ids } = await seedInbox(store)
      const by = { userId, at: at(300) }
      await changeOne(
        store,
        projectId,
        ids.flaky,
        { status: 'ignored', ignoreUntil: { count: 2 } },
        by,
      )
      const merged = await store.mergeIssues(projectId, [ids.flaky, ids.timeout], ids.flaky, by)
      expect(merged).toMatchObject({ ok: true, issue: { count: 5, status: 'ignored' } })
      await acceptAndProject(store, errors(projectId, hashes.timeout, 1, 301))
      expect((await store.findIssue(projectId, ids.flaky))?.status).toBe('ignored')
      await acceptAndProject(store, errors(projectId, hashes.timeout, 1, 302))
      expect(await store.findIssue(projectId, ids.flaky)).toMatchObject({
        status: 'unresolved',
        count: 7,
      })
    })

    it('loses and double-counts no event when merges and projection rounds overlap', async () => {
      const { store } = h()
      const { projectId, userId } = await seedProject(store)
      const by = { userId, at: at(300) }
      const hashes = ['a', 'b', 'c', 'd'].map((c) => c.repeat(64))
      await acceptAndProject(
        store,
        hashes.flatMap((hash, i) => errors(projectId, hash, i + 1, 10 + i, `u${i}`)),
      )
      const issues = await store.listIssues({ projectId, status: null, limit: 10 })
      const idOf = (hash: string) => issues.find((i) => i.groupingKey === `message:${hash}`)?.id
      const [a, b, c, d] = hashes.map((hash) => {
        const id = idOf(hash)
        if (!id) throw new Error(`no issue for ${hash}`)
        return id
      }) as [string, string, string, string]
      // c is ignored until 3 more events, met by the rounds that run beside the merges.
      await changeOne(store, projectId, c, { status: 'ignored', ignoreUntil: { count: 3 } }, by)
      const appends = Array.from({ length: 8 }, (_, round) =>
        store.append(
          hashes.flatMap((hash) => errors(projectId, hash, 2, 100 + round, `r${round}`)),
        ),
      )
      const projecting = (async () => {
        for (let i = 0; i < 8; i++) await store.project(7)
      })()
      const merges = await Promise.all([
        store.mergeIssues(projectId, [a, b], null, by),
        store.mergeIssues(projectId, [b, c], null, by),
        store.mergeIssues(projectId, [c, d], null, by),
      ])
      await Promise.all([...appends, projecting])
      await projectAll(store)
      expect(merges.every((m) => m.ok)).toBe(true)
      const left = await store.listIssues({ projectId, status: null, limit: 10 })
      // 1 + 2 + 3 + 4 seeded, 8 rounds of 2 per fingerprint.
      const total = 10 + 8 * 2 * 4
      expect(left).toHaveLength(1)
      expect(left[0]).toMatchObject({ count: total, users: 4 + 8 })
      expect(await eventsOf(store, projectId, left[0]!.id)).toHaveLength(total)
      for (const id of [a, b, c, d].filter((x) => x !== left[0]!.id)) {
        expect(await store.findMergedIssue(projectId, id)).toBe(left[0]!.id)
      }
      const history = await store.listIssueHistory({ projectId, issueId: left[0]!.id, limit: 100 })
      expect(history.filter((e) => e.kind === 'merge')).toHaveLength(3)
      expect(history.filter((e) => e.kind === 'ignore_met').length).toBeLessThanOrEqual(1)
    })
  })
}
