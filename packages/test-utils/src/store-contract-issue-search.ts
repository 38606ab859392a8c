import { EVENT_SEARCH_KEYS, ISSUE_SEARCH_KEYS, type IssueSort, parseSearch } from '@tis/schema'
import { describe, expect, it } from 'vitest'
import { acceptAndProject, at, eventOp, seedProject, uniqueHash } from './store-fixtures'
import type { StoreHarness } from './store-probe'

const NOW = new Date(Date.UTC(2026, 0, 1, 1, 0, 0))
const issueTerms = (text: string) => {
  const parsed = parseSearch(text, ISSUE_SEARCH_KEYS, NOW)
  if (!parsed.ok) throw new Error(parsed.error)
  return parsed.filters
}

/**
 * Four issues a search tells apart: level, title, count, first and last seen, and the release,
 * environment and user of their events.
 */
export async function seedInbox(store: StoreHarness['store']) {
  const { projectId, userId } = await seedProject(store)
  const h = {
    timeout: uniqueHash(),
    typeError: uniqueHash(),
    warning: uniqueHash(),
    flaky: uniqueHash(),
  }
  const ev = (
    hash: string,
    title: string,
    level: string,
    s: number,
    event: Record<string, unknown>,
  ) =>
    eventOp(projectId, {
      issue: { hash, title, level },
      occurredAt: at(s),
      event: { level, ...event },
    })
  await acceptAndProject(store, [
    ev(h.timeout, 'Timeout talking to db', 'error', 10, {
      release: '1.0',
      environment: 'production',
      user_id: 'u1',
    }),
    ev(h.timeout, 'Timeout talking to db', 'error', 20, {
      release: '1.1',
      environment: 'production',
      user_id: 'u2',
    }),
    ev(h.timeout, 'Timeout talking to db', 'error', 30, {
      release: '1.1',
      environment: 'production',
      user_id: 'u2',
    }),
    ev(h.typeError, 'TypeError: x is undefined', 'error', 5, {
      release: '1.1',
      environment: 'staging eu',
      user_id: '42',
    }),
    ev(h.typeError, 'TypeError: x is undefined', 'error', 35, {
      release: '1.1',
      environment: 'staging eu',
      user_id: '42',
    }),
    ev(h.warning, 'Slow query 50%_done', 'warning', 40, {
      release: '1.0',
      environment: 'production',
    }),
    ev(h.flaky, 'Flaky test', 'fatal', 1, {}),
    ev(h.flaky, 'Flaky test', 'fatal', 2, {}),
  ])
  const all = await store.listIssues({ projectId, status: null, limit: 10 })
  const id = (title: string) => all.find((i) => i.title.startsWith(title))!.id
  const ids = {
    timeout: id('Timeout'),
    typeError: id('TypeError'),
    warning: id('Slow'),
    flaky: id('Flaky'),
  }
  const search = async (text: string, sort?: IssueSort) =>
    (
      await store.listIssues({
        projectId,
        status: null,
        search: issueTerms(text),
        limit: 10,
        ...(sort ? { sort } : {}),
      })
    ).map((i) => i.id)
  return { projectId, userId, hashes: h, ids, all, search }
}

/** The search syntax's terms and the inbox's sort orders, as a store answers them. */
export function describeIssueSearchContract(h: () => StoreHarness) {
  describe('issue search', () => {
    it('matches each key, a list, negation, and free text literally', async () => {
      const { ids, search } = await seedInbox(h().store)
      const set = async (text: string) => new Set(await search(text))
      expect(await set('level:error')).toEqual(new Set([ids.timeout, ids.typeError]))
      expect(await set('level:[warning,fatal]')).toEqual(new Set([ids.warning, ids.flaky]))
      expect(await set('!level:error')).toEqual(new Set([ids.warning, ids.flaky]))
      expect(await set('release:1.0')).toEqual(new Set([ids.timeout, ids.warning]))
      expect(await set('!release:1.1')).toEqual(new Set([ids.warning, ids.flaky]))
      expect(await set('environment:"staging eu"')).toEqual(new Set([ids.typeError]))
      expect(await set('user.id:[u2,42]')).toEqual(new Set([ids.timeout, ids.typeError]))
      expect(await set('!user.id:u1')).toEqual(new Set([ids.typeError, ids.warning, ids.flaky]))
      expect(await set('times_seen:>2')).toEqual(new Set([ids.timeout]))
      expect(await set('times_seen:2')).toEqual(new Set([ids.flaky, ids.typeError]))
      expect(await set('times_seen:<=1')).toEqual(new Set([ids.warning]))
      expect(await set('!times_seen:<=1')).toEqual(new Set([ids.timeout, ids.flaky, ids.typeError]))
      expect(await set('timeout')).toEqual(new Set([ids.timeout]))
      expect(await set('"TYPEERROR: x"')).toEqual(new Set([ids.typeError]))
      expect(await set('!flaky !timeout')).toEqual(new Set([ids.typeError, ids.warning]))
      // % and _ are the characters themselves, not patterns.
      expect(await set('50%_')).toEqual(new Set([ids.warning]))
      expect(await set('%')).toEqual(new Set([ids.warning]))
      expect(await set('level:error release:1.1 user.id:42')).toEqual(new Set([ids.typeError]))
      expect(await set('level:debug')).toEqual(new Set())
    })

    it('compares first and last seen, and status', async () => {
      const { store } = h()
      const { projectId, ids, search } = await seedInbox(store)
      const set = async (text: string) => new Set(await search(text))
      // at(s) is 2026-01-01T00:00:<s>Z; NOW is an hour later.
      expect(await set('first_seen:>2026-01-01T00:00:06Z')).toEqual(
        new Set([ids.timeout, ids.warning]),
      )
      expect(await set('last_seen:<2026-01-01T00:00:30Z')).toEqual(new Set([ids.flaky]))
      expect(await set('last_seen:<=2026-01-01T00:00:30Z')).toEqual(
        new Set([ids.flaky, ids.timeout]),
      )
      expect(await set('first_seen:2026-01-01')).toHaveProperty('size', 4)
      expect(await set('!first_seen:2026-01-01')).toEqual(new Set())
      expect(await set('last_seen:-1h')).toHaveProperty('size', 4)
      expect(await set('last_seen:-59m')).toEqual(new Set())
      // The edges of the years a search may name are bounds every store can compare with.
      expect(await set('first_seen:>=0001-01-01 last_seen:<=9999-12-31T23:59:59Z')).toHaveProperty(
        'size',
        4,
      )
      expect(await set('first_seen:9999-12-31')).toEqual(new Set())
      await store.setIssueStatus(projectId, ids.flaky, 'resolved')
      await store.setIssueStatus(projectId, ids.warning, 'ignored')
      expect(await set('is:resolved')).toEqual(new Set([ids.flaky]))
      expect(await set('is:[resolved,ignored]')).toEqual(new Set([ids.flaky, ids.warning]))
      expect(await set('!is:unresolved')).toEqual(new Set([ids.flaky, ids.warning]))
    })

    it('sorts by last seen, first seen and times seen, and pages each with its cursor', async () => {
      const { store } = h()
      const { projectId, ids, all, search } = await seedInbox(store)
      expect(await search('')).toEqual([ids.warning, ids.typeError, ids.timeout, ids.flaky])
      expect(await search('', 'first_seen')).toEqual([
        ids.warning,
        ids.timeout,
        ids.typeError,
        ids.flaky,
      ])
      // Equal counts (flaky and typeError: 2) come in id order, descending.
      const twice = [ids.flaky, ids.typeError].sort().reverse()
      expect(await search('', 'times_seen')).toEqual([ids.timeout, ...twice, ids.warning])
      const page = (sort: IssueSort, after: IssueQueryAfter) =>
        store
          .listIssues({ projectId, status: null, sort, after, limit: 10 })
          .then((r) => r.map((i) => i.id))
      const first = all.find((i) => i.id === twice[0])!
      expect(await page('times_seen', { count: first.count, id: first.id })).toEqual([
        twice[1],
        ids.warning,
      ])
      const timeout = all.find((i) => i.id === ids.timeout)!
      expect(await page('first_seen', { at: timeout.firstSeenAt, id: timeout.id })).toEqual([
        ids.typeError,
        ids.flaky,
      ])
      expect(await page('last_seen', { at: timeout.lastSeenAt, id: timeout.id })).toEqual([
        ids.flaky,
      ])
    })
  })

  describe('event search', () => {
    it('matches level, release, environment, user, timestamp and message, negated too', async () => {
      const { store } = h()
      const { projectId } = await seedInbox(store)
      const events = async (text: string) => {
        const parsed = parseSearch(text, EVENT_SEARCH_KEYS, NOW)
        if (!parsed.ok) throw new Error(parsed.error)
        const rows = await store.listEvents({ projectId, search: parsed.filters, limit: 20 })
        return rows.map((e) => e.occurredAt.getUTCSeconds()).sort((a, b) => a - b)
      }
      expect(await events('level:fatal')).toEqual([1, 2])
      expect(await events('!level:error')).toEqual([1, 2, 40])
      expect(await events('release:1.1 environment:production')).toEqual([20, 30])
      expect(await events('user.id:u2')).toEqual([20, 30])
      expect(await events('!user.id:u2')).toEqual([1, 2, 5, 10, 35, 40])
      expect(
        await events('timestamp:>=2026-01-01T00:00:20Z timestamp:<2026-01-01T00:00:40Z'),
      ).toEqual([20, 30, 35])
      expect(await events('timeout !"slow query"')).toEqual([10, 20, 30])
    })
  })
}

type IssueQueryAfter = { at: Date; id: string } | { count: number; id: string }
