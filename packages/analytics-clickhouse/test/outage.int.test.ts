import type { ClickHouseClient } from '@clickhouse/client'
import { describeWithClickHouse } from '@tis/test-utils/clickhouse-suite'
import { afterAll, beforeAll, expect, it } from 'vitest'
import {
  type AnalyticsSink,
  createAnalyticsDrainer,
  createClickHouseAnalyticsStore,
  type DrainFailureKind,
  type FailureReport,
} from '../src/index'
import { rows, testClient, uniqueDatabase } from './support/clickhouse-client'
import { eventRowFixture, spanRowFixture } from './support/fixtures'
import { createMemoryOutbox } from './support/memory-outbox'

const until = async (condition: () => boolean | Promise<boolean>, timeoutMs = 20_000) => {
  const deadline = Date.now() + timeoutMs
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('timed out waiting')
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

// Real backoff reaches 8 s within an outage this long; the test keeps the order of events but
// caps each wait (the outbox here ignores retryAt for the same reason).
const cappedSleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
    const timer = setTimeout(done, Math.min(ms, 200))
    signal.addEventListener('abort', done, { once: true })
  })

describeWithClickHouse('drainer across a ClickHouse outage (real server)', (server) => {
  let client: ClickHouseClient
  beforeAll(() => {
    client = testClient(server().url)
  })
  afterAll(async () => {
    await client?.close()
  })

  async function totals(db: string) {
    const [row] = await rows<Record<string, string>>(
      client,
      `SELECT
         (SELECT count() FROM ${db}.events_raw) AS events,
         (SELECT uniqExact(id) FROM ${db}.events_raw) AS event_ids,
         (SELECT count() FROM ${db}.spans_raw) AS spans,
         (SELECT uniqExact(id) FROM ${db}.spans_raw) AS span_ids,
         (SELECT sum(count) FROM ${db}.events_1m) AS events_1m,
         (SELECT countMerge(count) FROM ${db}.request_spans_1m) AS spans_1m`,
    )
    return Object.fromEntries(Object.entries(row ?? {}).map(([k, v]) => [k, Number(v)]))
  }

  it('a lost acknowledgement is retried without duplicates', async () => {
    const db = uniqueDatabase()
    const store = createClickHouseAnalyticsStore(client, { database: db })
    await store.migrate()
    const outbox = createMemoryOutbox({ ignoreRetryAt: true })
    outbox.enqueue(
      ...Array.from({ length: 5 }, () => ({ kind: 'event' as const, row: eventRowFixture() })),
      ...Array.from({ length: 5 }, () => ({ kind: 'span' as const, row: spanRowFixture() })),
    )
    let lose = true
    // The insert lands but its acknowledgement never arrives (a timeout, or the process died).
    const sink: AnalyticsSink = {
      async insert(records) {
        const result = await store.insert(records)
        if (lose) {
          lose = false
          throw new Error('socket hang up')
        }
        return result
      },
    }
    const drainer = createAnalyticsDrainer({ outbox, sink, onFailure: () => {} })
    expect(await drainer.drainOnce()).toBe(0)
    expect(outbox.records().every((r) => r.attempts === 1)).toBe(true)
    expect(await drainer.drainOnce()).toBe(10)
    expect(drainer.stats()).toMatchObject({
      exported: 10,
      skipped: 10,
      failures: 1,
      consecutiveFailures: 0,
    })
    expect(await totals(db)).toEqual({
      events: 5,
      event_ids: 5,
      spans: 5,
      span_ids: 5,
      events_1m: 5,
      spans_1m: 5,
    })
  })

  it('delivers every queued row exactly once across a stop and restart, reporting once per throttle window', async () => {
    const db = uniqueDatabase()
    const store = createClickHouseAnalyticsStore(client, { database: db })
    await store.migrate()
    const outbox = createMemoryOutbox({ ignoreRetryAt: true })
    const count = 60
    const enqueue = (n: number) =>
      outbox.enqueue(
        ...Array.from({ length: n }, () => ({ kind: 'event' as const, row: eventRowFixture() })),
        ...Array.from({ length: n }, () => ({ kind: 'span' as const, row: spanRowFixture() })),
      )
    enqueue(count / 2)
    const reports: { at: number; report: FailureReport<DrainFailureKind> }[] = []
    const drainer = createAnalyticsDrainer({
      outbox,
      sink: store,
      batchSize: 10,
      intervalMs: 50,
      throttleSeconds: 1,
      sleep: cappedSleep,
      onFailure: (report) => reports.push({ at: Date.now(), report }),
    })
    drainer.start()
    await until(() => drainer.stats().exported >= 20)
    await server().stop()
    // Accepted while the store is down: these can only arrive after the restart.
    enqueue(count / 2)
    await until(() => drainer.stats().failures >= 3)
    await new Promise((resolve) => setTimeout(resolve, 1_500))
    await server().start()
    await until(() => outbox.records().length === 0)
    await drainer.stop()

    expect(await totals(db)).toEqual({
      events: count,
      event_ids: count,
      spans: count,
      span_ids: count,
      events_1m: count,
      spans_1m: count,
    })
    const stats = drainer.stats()
    expect(stats).toMatchObject({ running: false, exported: 2 * count, consecutiveFailures: 0 })
    expect(reports.length).toBeGreaterThanOrEqual(1)
    expect(reports.length).toBeLessThan(stats.failures)
    expect(reports[0]?.report).toMatchObject({ kind: 'insert', suppressed: 0, total: 1 })
    for (const kind of new Set(reports.map((r) => r.report.kind))) {
      const ofKind = reports.filter((r) => r.report.kind === kind)
      for (let i = 1; i < ofKind.length; i++) {
        expect(ofKind[i]!.at - ofKind[i - 1]!.at).toBeGreaterThanOrEqual(1_000)
      }
      // Each report accounts for itself and the failures swallowed since the previous one.
      const accounted = ofKind.reduce((sum, r) => sum + 1 + r.report.suppressed, 0)
      expect(accounted).toBe(ofKind.at(-1)?.report.total)
    }
    const reported = reports.reduce((sum, r) => sum + 1 + r.report.suppressed, 0)
    expect(reported).toBeLessThanOrEqual(stats.failures)
    expect(reports.at(-1)?.report.total).toBeLessThanOrEqual(stats.failures)
  }, 45_000)
})
