import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { describeChartReadsContract } from './store-contract-chart-reads'
import { describeIssueIgnoreContract } from './store-contract-issue-ignore'
import { describeIssueMergeContract } from './store-contract-issue-merge'
import { describeIssueReadsContract } from './store-contract-issue-reads'
import { describeIssueSearchContract } from './store-contract-issue-search'
import { describeIssueTriageContract } from './store-contract-issue-triage'
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
 * The read port: issue inbox and event list, status changes, the regression rule, monitors,
 * deployments and the event detail (find, related events).
 */
export function describeReadsContract(h: () => StoreHarness) {
  describeIssueReadsContract(h)
  describeIssueSearchContract(h)
  describeIssueTriageContract(h)
  describeIssueIgnoreContract(h)
  describeIssueMergeContract(h)
  describeChartReadsContract(h)

  describe('event reads', () => {
    it('lists events newest first with filters, time bounds and a keyset cursor', async () => {
      const { store } = h()
      const { projectId } = await seedProject(store)
      const trace = `t-${randomUUID()}`.repeat(20)
      const error = eventOp(projectId, {
        issue: { hash: uniqueHash() },
        occurredAt: at(1),
        event: { trace_id: trace },
      })
      const log = eventOp(projectId, { occurredAt: at(2), event: { message: 'Hello 50%' } })
      const late = eventOp(projectId, { occurredAt: at(2) })
      await acceptAndProject(store, [error, log, late])

      const all = await store.listEvents({ projectId, limit: 10 })
      expect(all.map((e) => e.id)).toEqual([...[log.id, late.id].sort().reverse(), error.id])
      const ids = async (query: Record<string, unknown>) =>
        (await store.listEvents({ projectId, limit: 10, ...query })).map((e) => e.id)
      expect(await ids({ eventType: 'error' })).toEqual([error.id])
      expect(await ids({ traceId: trace })).toEqual([error.id])
      expect(await ids({ issueId: all[2]!.issueId })).toEqual([error.id])
      expect(await ids({ q: '50%' })).toEqual([log.id])
      expect(await ids({ since: at(1), until: at(2) })).toEqual([error.id])
      expect(await ids({ after: { at: all[0]!.occurredAt, id: all[0]!.id } })).toEqual(
        all.slice(1).map((e) => e.id),
      )
      expect(all[2]).toMatchObject({ eventType: 'error', occurredAt: at(1) })
      expect(Number.isSafeInteger(all[2]!.legacyId)).toBe(true)
    })
  })
  describe('trace reads', () => {
    it("lists a trace's spans with their status and level as sent", async () => {
      const { store } = h()
      const { projectId } = await seedProject(store)
      const trace = randomUUID()
      const failed = spanOp(projectId, trace, { status: 'error', level: 'error' })
      const fromContext = spanOp(projectId, trace, { context: { status: 503 } })
      const plain = spanOp(projectId, trace)
      await acceptAndProject(store, [failed, fromContext, plain, spanOp(projectId, randomUUID())])
      const spans = await store.listTraceSpans(projectId, trace, 10)
      const byId = new Map(spans.map((s) => [s.id, s]))
      expect(spans).toHaveLength(3)
      expect(byId.get(failed.id)).toMatchObject({ status: 'error', level: 'error' })
      expect(byId.get(fromContext.id)).toMatchObject({ status: 503, level: null })
      expect(byId.get(plain.id)).toMatchObject({ status: null, level: null })
    })
  })

  describe('monitor, deployment and event detail reads', () => {
    it('lists monitors by (last_check_in_at desc, id desc), by environment, after a cursor', async () => {
      const { store } = h()
      const { projectId } = await seedProject(store)
      const other = await seedProject(store)
      await acceptAndProject(store, [
        checkInOp(projectId, monitorUpdate('a', 'ok', at(1))),
        checkInOp(projectId, monitorUpdate('b', 'error', at(3), { environment: 'staging' })),
        checkInOp(projectId, monitorUpdate('c', 'in_progress', at(2))),
        checkInOp(other.projectId, monitorUpdate('a', 'ok', at(9))),
      ])
      // An older check-in arriving late does not move last_check_in_at back.
      await acceptAndProject(store, [checkInOp(projectId, monitorUpdate('a', 'error', at(0)))])
      const all = await store.listMonitors({ projectId, limit: 10 })
      expect(all.map((m) => m.slug)).toEqual(['b', 'c', 'a'])
      expect(all[0]).toMatchObject({
        environment: 'staging',
        health: 'error',
        lastStatus: 'error',
        lastCheckInAt: at(3),
        expectedIntervalSeconds: 300,
        checkInCount: 1,
      })
      expect(all[1]).toMatchObject({ health: null, lastStatus: 'in_progress' })
      expect(all[2]).toMatchObject({ lastCheckInAt: at(1), checkInCount: 2 })
      const prod = await store.listMonitors({ projectId, environment: 'production', limit: 10 })
      expect(prod.map((m) => m.slug)).toEqual(['c', 'a'])
      const rest = await store.listMonitors({
        projectId,
        after: { at: all[0]!.lastCheckInAt, id: all[0]!.id },
        limit: 1,
      })
      expect(rest.map((m) => m.slug)).toEqual(['c'])
    })

    it('lists deployments newest first by environment, release, repository and time', async () => {
      const { store } = h()
      const { projectId } = await seedProject(store)
      const sha = 'a'.repeat(40)
      const fromEvent = (release: string, minute: number, environment = 'production') =>
        eventOp(projectId, {
          occurredAt: at(minute),
          deployment: { repository: 'acme/shop', environment, release, commitSha: sha },
        })
      await acceptAndProject(store, [
        fromEvent('v1', 1),
        fromEvent('v2', 3),
        fromEvent('v2', 2, 'staging'),
        deploymentOp(projectId, { repository: 'acme/api', release: 'v0', commitSha: sha }),
      ])
      const releases = async (query: Record<string, unknown>) =>
        (await store.listDeployments({ projectId, limit: 10, ...query })).map(
          (d) => `${d.repository}@${d.environment}:${d.release}`,
        )
      expect(await releases({})).toEqual([
        'acme/shop@production:v2',
        'acme/shop@staging:v2',
        'acme/shop@production:v1',
        'acme/api@production:v0',
      ])
      expect(await releases({ environment: 'staging' })).toEqual(['acme/shop@staging:v2'])
      expect(await releases({ release: 'v1', repository: 'acme/shop' })).toEqual([
        'acme/shop@production:v1',
      ])
      expect(await releases({ environment: 'production', deployedBefore: at(2) })).toEqual([
        'acme/shop@production:v1',
        'acme/api@production:v0',
      ])
      const [newest] = await store.listDeployments({ projectId, limit: 1 })
      expect(newest).toMatchObject({ commitSha: sha, source: 'event', branch: null })
      const after = await store.listDeployments({
        projectId,
        after: { at: newest!.deployedAt, id: newest!.id },
        limit: 10,
      })
      expect(after).toHaveLength(3)
    })

    it('finds an event within its project and lists related events', async () => {
      const { store } = h()
      const { projectId } = await seedProject(store)
      const other = await seedProject(store)
      const trace = `t-${randomUUID()}`
      const event = eventOp(projectId, {
        occurredAt: at(1),
        release: 'v1',
        event: { trace_id: trace, request_id: 'rq', session_id: 'ss', environment: 'prod' },
      })
      const byTrace = eventOp(projectId, { occurredAt: at(2), event: { trace_id: trace } })
      const bySession = eventOp(projectId, { occurredAt: at(3), event: { session_id: 'ss' } })
      const unrelated = eventOp(projectId, { occurredAt: at(4), event: { trace_id: 'x' } })
      const elsewhere = eventOp(other.projectId, { event: { trace_id: trace } })
      await acceptAndProject(store, [event, byTrace, bySession, unrelated, elsewhere])

      const found = await store.findEvent(projectId, event.id)
      expect(found).toMatchObject({
        id: event.id,
        environment: 'prod',
        release: 'v1',
        traceId: trace,
        requestId: 'rq',
        sessionId: 'ss',
      })
      expect(await store.findEvent(other.projectId, event.id)).toBeNull()
      expect(await store.findEvent(projectId, 'nope')).toBeNull()
      const related = await store.listRelatedEvents({
        projectId,
        eventId: event.id,
        traceId: trace,
        requestId: 'rq',
        sessionId: 'ss',
        limit: 20,
      })
      expect(related.map((e) => e.id)).toEqual([bySession.id, byTrace.id])
      const none = { projectId, eventId: event.id, traceId: null, requestId: null, sessionId: null }
      expect(await store.listRelatedEvents({ ...none, limit: 20 })).toEqual([])
      expect(
        (await store.listRelatedEvents({ ...none, traceId: trace, limit: 1 })).map((e) => e.id),
      ).toEqual([byTrace.id])
    })
  })
}
