import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import {
  acceptAndProject,
  at,
  checkInOp,
  deploymentOp,
  eventOp,
  monitorUpdate,
  seedProject,
  spanOp,
  uniqueHash,
} from './store-fixtures'
import type { StoreHarness } from './store-probe'

/**
 * Acceptance on the ingest log and its projection: results, events, issue grouping, spans and
 * atomicity.
 */
export function describeEventsContract(h: () => StoreHarness) {
  describe('acceptance results', () => {
    it('resolves an empty batch to no results', async () => {
      expect(await acceptAndProject(h().store, [])).toEqual([])
    })

    it('returns one result per op in batch order: legacy ids for events and spans, null for check-ins', async () => {
      const { store } = h()
      const { projectId } = await seedProject(store)
      const batch = [
        eventOp(projectId),
        checkInOp(projectId, monitorUpdate(`m-${randomUUID()}`, 'ok', at(1))),
        spanOp(projectId, randomUUID()),
        deploymentOp(projectId, {
          repository: `o/${randomUUID()}`,
          release: '1',
          commitSha: 'abc1234',
        }),
        eventOp(projectId, { issue: { hash: uniqueHash() } }),
      ]
      const results = await acceptAndProject(store, batch)
      expect(results.map((r) => r.id)).toEqual(batch.map((op) => op.id))
      const [event, checkIn, span, deployment, error] = results
      expect(checkIn?.legacyId).toBeNull()
      for (const r of [event, span, deployment, error])
        expect(Number.isSafeInteger(r?.legacyId)).toBe(true)
      expect(error!.legacyId!).toBeGreaterThan(event!.legacyId!)
    })
  })

  describe('issue grouping', () => {
    it('groups errors of one batch into one issue with the right count and first/last seen', async () => {
      const { store, probe } = h()
      const { projectId } = await seedProject(store)
      const hash = uniqueHash()
      const first = eventOp(projectId, { issue: { hash }, occurredAt: at(20), release: 'v2' })
      const second = eventOp(projectId, { issue: { hash }, occurredAt: at(10), release: 'v1' })
      await acceptAndProject(store, [first, second])
      const issue = await probe.issue(projectId, hash)
      expect(issue).toMatchObject({
        count: 2,
        status: 'unresolved',
        firstSeenAt: at(10),
        lastSeenAt: at(20),
        firstRelease: 'v1',
        lastRelease: 'v2',
        latestEventId: first.id,
      })
      expect(await probe.eventIssueId(first.id)).toBe(issue?.id)
      expect(await probe.eventIssueId(second.id)).toBe(issue?.id)
    })

    it('updates the issue across batches: count, last seen, newest release and level', async () => {
      const { store, probe } = h()
      const { projectId } = await seedProject(store)
      const hash = uniqueHash()
      await acceptAndProject(store, [
        eventOp(projectId, { issue: { hash }, occurredAt: at(10), release: 'v1' }),
      ])
      const newer = eventOp(projectId, {
        issue: { hash, level: 'fatal' },
        occurredAt: at(30),
        release: 'v3',
      })
      await acceptAndProject(store, [newer])
      // A late event becomes the first seen (with its release) but leaves the last_* values.
      await acceptAndProject(store, [
        eventOp(projectId, { issue: { hash }, occurredAt: at(5), release: 'v0' }),
      ])
      expect(await probe.issue(projectId, hash)).toMatchObject({
        count: 3,
        firstSeenAt: at(5),
        lastSeenAt: at(30),
        firstRelease: 'v0',
        lastRelease: 'v3',
        level: 'fatal',
        latestEventId: newer.id,
      })
    })

    it('keeps the last release when the newest event has none', async () => {
      const { store, probe } = h()
      const { projectId } = await seedProject(store)
      const hash = uniqueHash()
      await acceptAndProject(store, [
        eventOp(projectId, { issue: { hash }, occurredAt: at(1), release: 'v1' }),
      ])
      await acceptAndProject(store, [eventOp(projectId, { issue: { hash }, occurredAt: at(2) })])
      expect(await probe.issue(projectId, hash)).toMatchObject({ count: 2, lastRelease: 'v1' })
    })

    it('keeps issues apart per hash and per project; non-errors join no issue', async () => {
      const { store, probe } = h()
      const a = await seedProject(store)
      const b = await seedProject(store)
      const hash = uniqueHash()
      const log = eventOp(a.projectId)
      await acceptAndProject(store, [
        eventOp(a.projectId, { issue: { hash } }),
        eventOp(a.projectId, { issue: { hash: uniqueHash() } }),
        eventOp(b.projectId, { issue: { hash } }),
        log,
      ])
      expect(await probe.count('issues', a.projectId)).toBe(2)
      expect((await probe.issue(b.projectId, hash))?.count).toBe(1)
      expect(await probe.eventIssueId(log.id)).toBeNull()
    })

    it('counts every error when concurrent batches hit the same issues in opposite orders', async () => {
      const { store, probe } = h()
      const { projectId } = await seedProject(store)
      const hashes = [uniqueHash(), uniqueHash(), uniqueHash()]
      const batch = (order: string[]) =>
        order.map((hash) => eventOp(projectId, { issue: { hash } }))
      await Promise.all([
        acceptAndProject(store, batch(hashes)),
        acceptAndProject(store, batch([...hashes].reverse())),
        acceptAndProject(store, batch(hashes)),
      ])
      for (const hash of hashes) expect((await probe.issue(projectId, hash))?.count).toBe(3)
    })
  })

  describe('events and spans', () => {
    it('stores spans apart from events', async () => {
      const { store, probe } = h()
      const { projectId } = await seedProject(store)
      const span = spanOp(projectId, randomUUID())
      await acceptAndProject(store, [span, spanOp(projectId, randomUUID()), eventOp(projectId)])
      expect(await probe.count('spans', projectId)).toBe(2)
      expect(await probe.count('events', projectId)).toBe(1)
      expect(await probe.eventIssueId(span.id)).toBeUndefined()
    })

    it('stores events whose strings hold NUL characters and unpaired surrogates', async () => {
      const { store, probe } = h()
      const { projectId } = await seedProject(store)
      const op = eventOp(projectId, {
        event: {
          message: 'a\u0000b \ud800',
          // A NUL in a key, also in an object under the empty key "" (found by fuzzing).
          context: { tags: { 'k\u0000': 'v\udc00' }, '': { 'a\u0000b': 1 } },
        },
      })
      await acceptAndProject(store, [op])
      expect(await probe.count('events', projectId)).toBe(1)
    })

    it('stores 1,024-character identifiers of multi-byte characters', async () => {
      const { store, probe } = h()
      const { projectId } = await seedProject(store)
      const long = '€'.repeat(1_024)
      const event = eventOp(projectId, {
        event: { trace_id: long, request_id: long, session_id: long, environment: long },
      })
      await acceptAndProject(store, [event, spanOp(projectId, long)])
      expect(await probe.count('events', projectId)).toBe(1)
      expect(await probe.count('spans', projectId)).toBe(1)
    })
  })

  describe('atomicity', () => {
    it('writes nothing of a batch when one op violates a constraint (unknown project)', async () => {
      const { store, probe } = h()
      const { projectId } = await seedProject(store)
      const hash = uniqueHash()
      const slug = `m-${randomUUID()}`
      const batch = [
        eventOp(projectId, { issue: { hash } }),
        checkInOp(projectId, monitorUpdate(slug, 'ok', at(1))),
        spanOp(projectId, randomUUID()),
        deploymentOp(projectId, {
          repository: `o/${randomUUID()}`,
          release: '1',
          commitSha: 'abc1234',
        }),
        eventOp(randomUUID()),
      ]
      await expect(acceptAndProject(store, batch)).rejects.toThrow()
      for (const table of [
        'events',
        'spans',
        'issues',
        'monitors',
        'check_ins',
        'deployments',
      ] as const) {
        expect(await probe.count(table, projectId), table).toBe(0)
      }
    })
  })
}
