import { describe, expect, it } from 'vitest'
import { acceptAndProject, at, eventOp, seedProject } from './store-fixtures'
import type { StoreHarness } from './store-probe'

/** The dashboard's chart reads: events per issue and hour, transaction latency buckets. */
export function describeChartReadsContract(h: () => StoreHarness) {
  describe('chart reads', () => {
    it('counts events per issue and hour in one read, only of the project and window', async () => {
      const { store } = h()
      const { projectId } = await seedProject(store)
      const other = await seedProject(store)
      const hour = (n: number, minute = 0) => at(n * 3600 + minute * 60)
      const error = (title: string, occurredAt: Date, project = projectId) =>
        eventOp(project, { issue: { hash: `${title}-${projectId}`, title }, occurredAt })
      await acceptAndProject(store, [
        error('A', hour(0, 5)),
        error('A', hour(0, 55)),
        error('A', hour(2, 1)),
        error('B', hour(1)),
        // Outside the window [hour 0, hour 3): not counted.
        error('B', hour(3)),
        error('C', hour(1)),
        error('X', hour(1), other.projectId),
      ])
      const issues = await store.listIssues({ projectId, status: null, limit: 10 })
      const id = (title: string) => issues.find((i) => i.title === title)!.id
      const [foreign] = await store.listIssues({
        projectId: other.projectId,
        status: null,
        limit: 1,
      })
      const window = { projectId, since: hour(0), until: hour(3), intervalSeconds: 3600 }
      const buckets = await store.issueActivity({
        ...window,
        issueIds: [id('A'), id('B'), id('C'), foreign!.id, 'not-a-uuid'],
      })
      const shown = buckets
        .map((x) => [x.issueId, x.start.getTime(), x.count] as const)
        .sort((p, q) => (p[0] < q[0] ? -1 : p[0] > q[0] ? 1 : p[1] - q[1]))
      const expected = [
        [id('A'), hour(0).getTime(), 2],
        [id('A'), hour(2).getTime(), 1],
        [id('B'), hour(1).getTime(), 1],
        [id('C'), hour(1).getTime(), 1],
      ].sort((p, q) => (p[0]! < q[0]! ? -1 : p[0]! > q[0]! ? 1 : Number(p[1]) - Number(q[1])))
      expect(shown).toEqual(expected)
      expect(await store.issueActivity({ ...window, issueIds: [] })).toEqual([])
      expect(
        await store.issueActivity({ ...window, projectId: other.projectId, issueIds: [id('A')] }),
      ).toEqual([])
    })

    it('buckets transaction latency by time, for one name or all, with environment filter', async () => {
      const { store } = h()
      const { projectId } = await seedProject(store)
      const tx = (name: string, seconds: number, duration: number, extra = {}) =>
        eventOp(projectId, {
          occurredAt: at(seconds),
          event: {
            event_type: 'transaction',
            transaction_name: name,
            duration_ms: duration,
            environment: 'production',
            ...extra,
          } as never,
        })
      await acceptAndProject(store, [
        tx('GET /a', 0, 10),
        tx('GET /a', 30, 30, { context: { status_code: 503 } }),
        tx('GET /a', 59, 20),
        tx('GET /b', 10, 1000),
        tx('GET /a', 120, 40),
        tx('GET /a', 130, 50, { environment: 'staging' }),
        tx('GET /a', 180, 99),
      ])
      const base = { projectId, since: at(0), until: at(180), intervalSeconds: 60 }
      const one = await store.transactionLatency({ ...base, name: 'GET /a' })
      expect(one).toEqual([
        {
          start: at(0),
          count: 3,
          errorCount: 1,
          p50: 20,
          p95: expect.closeTo(29, 5),
          p99: expect.closeTo(29.8, 5),
          avg: 20,
        },
        {
          start: at(120),
          count: 2,
          errorCount: 0,
          p50: 45,
          p95: expect.any(Number),
          p99: expect.any(Number),
          avg: 45,
        },
      ])
      const all = await store.transactionLatency({ ...base, environment: 'production' })
      expect(all.map((b) => [b.start.getTime(), b.count])).toEqual([
        [at(0).getTime(), 4],
        [at(120).getTime(), 1],
      ])
      expect(await store.transactionLatency({ ...base, name: 'GET /none' })).toEqual([])
    })
  })
}
