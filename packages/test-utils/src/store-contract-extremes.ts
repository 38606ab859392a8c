import { describe, expect, it } from 'vitest'
import { EXTREME, extremeRowsSql } from './extreme-rows'
import { seedProject } from './store-fixtures'
import type { StoreHarness } from './store-probe'

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0)
const HOUR = 3_600_000

/** Every number in `value`, however deep. */
function numbers(value: unknown): number[] {
  if (typeof value === 'number') return [value]
  if (value instanceof Date || value === null || typeof value !== 'object') return []
  return Object.values(value).flatMap(numbers)
}

/**
 * Reads over rows an old database may hold (written past every check, see
 * `extreme-rows.ts`) resolve, aggregate only in-range values and hand the engine no number a
 * JSON answer cannot carry in an aggregate.
 */
export function describeExtremesContract(h: () => StoreHarness) {
  describe('reads over extreme stored values', () => {
    async function seeded() {
      const { store, probe } = h()
      const { projectId } = await seedProject(store)
      const now = new Date()
      for (const sql of extremeRowsSql(projectId, now)) await probe.exec(sql)
      const window = { projectId, since: new Date(now.getTime() - HOUR), until: now }
      return { store, projectId, now, window }
    }

    it('transaction timings leave out durations outside 0 to 365 days, and count them', async () => {
      const { store, window } = await seeded()
      const rows = await store.summarizeTransactions({ ...window, limit: 10 })
      const row = rows.find((r) => r.name === EXTREME.transaction)
      expect(row).toMatchObject({ count: EXTREME.transactionCount, errorCount: 1, p50: 20 })
      expect(row?.avg).toBeCloseTo(sum(EXTREME.durations) / EXTREME.durations.length, 9)
      expect(row?.p95).toBeCloseTo(29, 9)
      const long = rows.find((r) => r.name === EXTREME.longName)
      expect(long).toMatchObject({ count: 1, p50: null, p95: null, p99: null, avg: null })

      const buckets = await store.transactionLatency({ ...window, intervalSeconds: 3600 })
      const counted = sum(buckets.map((b) => b.count))
      expect(counted).toBe(EXTREME.transactionCount + 1)
      expect(buckets.map((b) => b.p50)).toEqual([20])
      const named = await store.transactionLatency({
        ...window,
        intervalSeconds: 60,
        name: EXTREME.transaction,
      })
      expect(named).toHaveLength(1)
      expect(named[0]).toMatchObject({ count: EXTREME.transactionCount, errorCount: 1 })
    })

    it('metric aggregates leave out values of magnitude above 1e20, and count them', async () => {
      const { store, window } = await seeded()
      const [bucket, ...rest] = await store.metricBuckets({
        ...window,
        name: EXTREME.metric,
        intervalSeconds: 3600,
      })
      expect(rest).toEqual([])
      expect(bucket).toMatchObject({
        count: EXTREME.metricCount,
        sum: sum(EXTREME.values),
        min: Math.min(...EXTREME.values),
        max: Math.max(...EXTREME.values),
      })
      expect(bucket?.avg).toBeCloseTo(sum(EXTREME.values) / EXTREME.values.length, 9)
      const [long] = await store.metricBuckets({
        ...window,
        name: EXTREME.longName,
        intervalSeconds: 3600,
      })
      expect(long).toMatchObject({ count: 1, sum: null, min: null, max: null, avg: null })
    })

    it('issues, monitors, deployments, events and spans with the largest counts and unrepresentable times are read', async () => {
      const { store, projectId, window } = await seeded()
      const issues = await store.listIssues({ projectId, status: null, limit: 200 })
      expect(issues).toHaveLength(6)
      for (const i of issues) expect(i.count).toBe(Number(EXTREME.maxBigint))
      // BC and ±infinity are no JavaScript instant: an invalid Date, never a number or a throw.
      const times = issues.map((i) => i.lastSeenAt)
      for (const t of times) expect(t).toBeInstanceOf(Date)
      expect(times.filter((t) => Number.isNaN(t.getTime()))).toHaveLength(4)
      const activity = await store.issueActivity({
        ...window,
        issueIds: issues.map((i) => i.id),
        intervalSeconds: 3600,
      })
      expect(sum(activity.map((b) => b.count))).toBe(6)

      const monitors = await store.listMonitors({ projectId, limit: 200 })
      expect(monitors).toHaveLength(6)
      for (const m of monitors) {
        expect(m.checkInCount).toBe(Number(EXTREME.maxBigint))
        expect(m.expectedIntervalSeconds).toBe(2_147_483_647)
        expect(m.lastCheckInAt).toBeInstanceOf(Date)
      }

      const deployments = await store.listDeployments({ projectId, limit: 200 })
      expect(deployments).toHaveLength(6)
      for (const d of deployments) expect(d.deployedAt).toBeInstanceOf(Date)

      const events = await store.listEvents({ projectId, limit: 200 })
      expect(events.length).toBeGreaterThan(30)
      for (const e of events) expect(e.occurredAt).toBeInstanceOf(Date)
      const spans = await store.listTraceSpans(projectId, EXTREME.traceId, 100)
      expect(spans).toHaveLength(1 + 8 + 12)
      const roots = await store.listRootSpans({ projectId, kinds: ['server'], limit: 200 })
      expect(roots).toHaveLength(7)
      for (const s of [...spans, ...roots]) expect(s.startedAt).toBeInstanceOf(Date)
      // Single records keep what was stored (the JSON layer maps non-finite numbers to null).
      expect(numbers(spans.map((s) => s.durationMs))).toContain(1.7976931348623157e308)
    })
  })
}
