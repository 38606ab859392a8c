import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { seedInbox } from './store-contract-issue-search'
import { acceptAndProject, at, eventOp, seedProject } from './store-fixtures'
import type { StoreHarness } from './store-probe'

/** One issue through `changeIssues`: the issue after the change, or `null`. */
export const changeOne = async (
  store: StoreHarness['store'],
  projectId: string,
  issueId: string,
  change: Parameters<StoreHarness['store']['changeIssues']>[2],
  by: Parameters<StoreHarness['store']['changeIssues']>[3],
) => (await store.changeIssues(projectId, [issueId], change, by)).issues[0] ?? null

/** What a team triages with: affected users and assignees, as a store keeps and searches them. */
export function describeIssueTriageContract(h: () => StoreHarness) {
  describe('affected users', () => {
    it('counts distinct user ids per issue across rounds, searches and sorts by them', async () => {
      const { store } = h()
      const { projectId, hashes, ids, search } = await seedInbox(store)
      const users = async () =>
        Object.fromEntries(
          (await store.listIssues({ projectId, status: null, limit: 10 })).map((i) => [
            i.id,
            i.users,
          ]),
        )
      // u1, u2, u2 · 42, 42 · none · none.
      expect(await users()).toEqual({
        [ids.timeout]: 2,
        [ids.typeError]: 1,
        [ids.warning]: 0,
        [ids.flaky]: 0,
      })
      const ev = (hash: string, title: string, level: string, user: string, s: number) =>
        eventOp(projectId, {
          issue: { hash, title, level },
          occurredAt: at(s),
          event: { level, user_id: user },
        })
      // A later round: known users add nothing, new ones one each, once however often they come.
      await acceptAndProject(store, [
        ev(hashes.timeout, 'Timeout talking to db', 'error', 'u1', 50),
        ev(hashes.timeout, 'Timeout talking to db', 'error', 'u3', 51),
        ev(hashes.timeout, 'Timeout talking to db', 'error', 'u3', 52),
        ev(hashes.warning, 'Slow query 50%_done', 'warning', 'u1', 53),
      ])
      await acceptAndProject(store, [
        ev(hashes.timeout, 'Timeout talking to db', 'error', 'u3', 54),
        ev(hashes.warning, 'Slow query 50%_done', 'warning', 'u4', 55),
      ])
      expect(await users()).toEqual({
        [ids.timeout]: 3,
        [ids.typeError]: 1,
        [ids.warning]: 2,
        [ids.flaky]: 0,
      })
      const set = async (text: string) => new Set(await search(text))
      expect(await set('users:>=2')).toEqual(new Set([ids.timeout, ids.warning]))
      expect(await set('users:1')).toEqual(new Set([ids.typeError]))
      expect(await set('!users:0 users:<3')).toEqual(new Set([ids.typeError, ids.warning]))
      expect(await search('', 'users')).toEqual([
        ids.timeout,
        ids.warning,
        ids.typeError,
        ids.flaky,
      ])
      const warning = (await store.findIssue(projectId, ids.warning))!
      expect(
        (
          await store.listIssues({
            projectId,
            status: null,
            sort: 'users',
            after: { count: warning.users, id: warning.id },
            limit: 10,
          })
        ).map((i) => i.id),
      ).toEqual([ids.typeError, ids.flaky])
    })
  })

  describe('assignees', () => {
    it('assigns and unassigns with a status at once, and searches by assignee', async () => {
      const { store } = h()
      const { projectId, userId, hashes, ids, search } = await seedInbox(store)
      const set = async (text: string) => new Set(await search(text))
      const by = { userId, at: at(60) }
      const assigned = await changeOne(store, projectId, ids.timeout, { assigneeId: userId }, by)
      expect(assigned).toMatchObject({
        status: 'unresolved',
        assignee: { id: userId, email: `owner-${userId}@example.com` },
      })
      expect((await store.findIssue(projectId, ids.timeout))?.assignee?.id).toBe(userId)
      const user = (id: string) => ({ kind: 'user' as const, userId: id })
      const byAssignee = (negated: boolean, ...values: Parameters<typeof user>[0][]) =>
        store
          .listIssues({
            projectId,
            status: null,
            search: [{ kind: 'assigned', negated, values: values.map(user) }],
            limit: 10,
          })
          .then((r) => new Set(r.map((i) => i.id)))
      expect(await byAssignee(false, userId)).toEqual(new Set([ids.timeout]))
      expect(await byAssignee(true, userId)).toEqual(
        new Set([ids.typeError, ids.warning, ids.flaky]),
      )
      expect(await set('is:assigned')).toEqual(new Set([ids.timeout]))
      expect(await set('assigned:none')).toEqual(new Set([ids.typeError, ids.warning, ids.flaky]))
      expect(await set('is:assigned level:warning')).toEqual(new Set())
      // A projected occurrence keeps the assignee: the projection never writes it.
      await acceptAndProject(store, [
        eventOp(projectId, {
          issue: { hash: hashes.timeout, title: 'Timeout talking to db' },
          occurredAt: at(59),
        }),
      ])
      expect((await store.findIssue(projectId, ids.timeout))?.assignee?.id).toBe(userId)
      const both = await changeOne(
        store,
        projectId,
        ids.timeout,
        { status: 'resolved', assigneeId: null },
        by,
      )
      expect(both).toMatchObject({ status: 'resolved', assignee: null })
      expect(await set('is:assigned')).toEqual(new Set())
      expect(await changeOne(store, projectId, 'not-a-uuid', { assigneeId: null }, by)).toBeNull()
    })
  })

  describe('comments and history', () => {
    it('adds, pages and deletes comments, with a history entry by its actor for each change', async () => {
      const { store } = h()
      const { projectId, userId, ids } = await seedInbox(store)
      const other = await seedProject(store)
      const email = `owner-${userId}@example.com`
      const comment = (id: string, body: string, s: number, issueId = ids.timeout) =>
        store.addIssueComment({ id, projectId, issueId, authorId: userId, body, createdAt: at(s) })
      const [c1, c2, c3] = [randomUUID(), randomUUID(), randomUUID()]
      expect(await comment(c1, 'First *one*', 100)).toEqual({
        id: c1,
        issueId: ids.timeout,
        author: { id: userId, email },
        body: 'First *one*',
        createdAt: at(100),
      })
      await comment(c2, 'Second', 101)
      await comment(c3, 'Elsewhere', 102, ids.flaky)
      // Another project's issue takes no comment.
      expect(
        await store.addIssueComment({
          id: randomUUID(),
          projectId: other.projectId,
          issueId: ids.timeout,
          authorId: userId,
          body: 'x',
          createdAt: at(103),
        }),
      ).toBeNull()
      const q = { projectId, issueId: ids.timeout }
      const bodies = async (after?: { at: Date; id: string }) =>
        (await store.listIssueComments({ ...q, limit: 10, ...(after ? { after } : {}) })).map(
          (c) => c.body,
        )
      expect(await bodies()).toEqual(['First *one*', 'Second'])
      expect(await bodies({ at: at(100), id: c1 })).toEqual(['Second'])
      expect(await store.findIssueComment(projectId, ids.timeout, c3)).toBeNull()
      expect((await store.findIssueComment(projectId, ids.flaky, c3))?.body).toBe('Elsewhere')
      const by = { userId, at: at(110) }
      expect(await store.deleteIssueComment(other.projectId, ids.timeout, c1, by)).toBe(false)
      expect(await store.deleteIssueComment(projectId, ids.timeout, c1, by)).toBe(true)
      expect(await store.deleteIssueComment(projectId, ids.timeout, c1, by)).toBe(false)
      expect(await bodies()).toEqual(['Second'])
      await changeOne(
        store,
        projectId,
        ids.timeout,
        { status: 'ignored', assigneeId: userId },
        {
          userId,
          at: at(120),
        },
      )
      // What is already so is no change; tis's own changes name nobody.
      await changeOne(store, projectId, ids.timeout, { status: 'ignored' }, { userId, at: at(121) })
      await changeOne(
        store,
        projectId,
        ids.timeout,
        { status: 'unresolved' },
        {
          userId: null,
          at: at(122),
        },
      )
      const history = await store.listIssueHistory({ ...q, limit: 10 })
      expect(history.map((e) => [e.kind, e.actor, e.data, e.createdAt])).toEqual([
        ['comment', email, { comment_id: c1 }, at(100)],
        ['comment', email, { comment_id: c2 }, at(101)],
        ['comment_deleted', email, { comment_id: c1 }, at(110)],
        ['status', email, { from: 'unresolved', to: 'ignored' }, at(120)],
        ['assignee', email, { from: null, to: email }, at(120)],
        ['status', null, { from: 'ignored', to: 'unresolved' }, at(122)],
      ])
      const [, , third] = history
      expect(
        (
          await store.listIssueHistory({
            ...q,
            after: { at: third!.createdAt, id: third!.id },
            limit: 2,
          })
        ).map((e) => e.kind),
      ).toEqual(['status', 'assignee'])
      expect(
        await store.listIssueHistory({
          projectId: other.projectId,
          issueId: ids.timeout,
          limit: 10,
        }),
      ).toEqual([])
    })
  })

  describe('bulk changes', () => {
    it("changes many issues at once, only the project's own, counting those that changed", async () => {
      const { store } = h()
      const { projectId, userId, ids } = await seedInbox(store)
      const other = await seedInbox(store)
      const by = { userId, at: at(200) }
      await changeOne(store, projectId, ids.flaky, { status: 'resolved' }, by)
      const result = await store.changeIssues(
        projectId,
        [ids.timeout, ids.flaky, ids.warning, other.ids.timeout, 'not-a-uuid', ids.timeout],
        { status: 'resolved' },
        by,
      )
      // flaky was resolved already: matched, not changed; the other project's issue is not seen.
      expect(new Set(result.issues.map((i) => i.id))).toEqual(
        new Set([ids.timeout, ids.flaky, ids.warning]),
      )
      expect(result.issues.every((i) => i.status === 'resolved')).toBe(true)
      expect(result.changed).toBe(2)
      expect((await store.findIssue(other.projectId, other.ids.timeout))?.status).toBe('unresolved')
      const statusEntries = async (issueId: string) =>
        (await store.listIssueHistory({ projectId, issueId, limit: 10 })).filter(
          (e) => e.kind === 'status',
        ).length
      expect(await statusEntries(ids.timeout)).toBe(1)
      expect(await statusEntries(ids.flaky)).toBe(1)
      expect(await store.changeIssues(projectId, [], { status: 'ignored' }, by)).toEqual({
        issues: [],
        changed: 0,
      })
    })
  })
}
