import type { OutboxRecord } from '@tis/ingest'
import { describe, expect, it } from 'vitest'
import { eventRowFixture, spanRowFixture } from '../test/support/fixtures'
import { createMemoryOutbox } from '../test/support/memory-outbox'
import { createAnalyticsDrainer, type DrainFailureKind } from './drainer'
import type { AnalyticsSink } from './sink'
import type { FailureReport } from './throttle'

function setup(n: number) {
  let now = 1_000_000
  const clock = {
    now: () => now,
    advance: (ms: number) => {
      now += ms
    },
  }
  const outbox = createMemoryOutbox({ now: clock.now })
  for (let i = 0; i < n; i++) {
    outbox.enqueue(
      i % 2 ? { kind: 'span', row: spanRowFixture() } : { kind: 'event', row: eventRowFixture() },
    )
  }
  const batches: OutboxRecord[][] = []
  let failWith: Error | undefined
  const sink: AnalyticsSink = {
    async insert(records) {
      if (failWith) throw failWith
      batches.push([...records])
      return { inserted: records.length, skipped: 0 }
    },
  }
  const reports: FailureReport<DrainFailureKind>[] = []
  return {
    clock,
    outbox,
    sink,
    batches,
    reports,
    fail: (error?: Error) => {
      failWith = error
    },
    onFailure: (report: FailureReport<DrainFailureKind>) => void reports.push(report),
  }
}

describe('createAnalyticsDrainer', () => {
  it('claims, inserts and completes batches of batchSize', async () => {
    const t = setup(5)
    const drainer = createAnalyticsDrainer({
      outbox: t.outbox,
      sink: t.sink,
      batchSize: 2,
      now: t.clock.now,
    })
    expect([
      await drainer.drainOnce(),
      await drainer.drainOnce(),
      await drainer.drainOnce(),
    ]).toEqual([2, 2, 1])
    expect(await drainer.drainOnce()).toBe(0)
    expect(t.batches.map((b) => b.length)).toEqual([2, 2, 1])
    expect(await t.outbox.stats()).toEqual({ depth: 0, oldestEnqueuedAt: null })
    expect(drainer.stats()).toEqual({
      running: false,
      exported: 5,
      skipped: 0,
      failures: 0,
      consecutiveFailures: 0,
    })
  })

  it('releases a failed batch with exponential backoff and reports once per window', async () => {
    const t = setup(2)
    const drainer = createAnalyticsDrainer({
      outbox: t.outbox,
      sink: t.sink,
      throttleSeconds: 10,
      now: t.clock.now,
      random: () => 0,
      onFailure: t.onFailure,
    })
    t.fail(new Error('connection refused'))
    const waits: number[] = []
    for (let i = 0; i < 4; i++) {
      expect(await drainer.drainOnce()).toBe(0)
      const available = t.outbox.records()[0]
      expect(available?.attempts).toBe(i + 1)
      // Nothing can be claimed before the backoff is over.
      expect((await t.outbox.claim(10, 1_000)).records).toEqual([])
      const wait = 500 * 2 ** i
      waits.push(wait)
      t.clock.advance(wait)
    }
    expect(waits).toEqual([500, 1_000, 2_000, 4_000])
    expect(t.reports).toEqual([
      { kind: 'insert', message: 'connection refused', suppressed: 0, total: 1 },
    ])
    t.clock.advance(10_000)
    expect(await drainer.drainOnce()).toBe(0)
    expect(t.reports[1]).toEqual({
      kind: 'insert',
      message: 'connection refused',
      suppressed: 3,
      total: 5,
    })
    t.fail()
    t.clock.advance(60_000)
    expect(await drainer.drainOnce()).toBe(2)
    expect(t.batches[0]?.every((r) => r.attempts === 5)).toBe(true)
    expect(drainer.stats()).toMatchObject({ exported: 2, failures: 5, consecutiveFailures: 0 })
  })

  it('reports outbox failures by kind and survives a throwing reporter', async () => {
    const t = setup(1)
    const drainer = createAnalyticsDrainer({
      outbox: { ...t.outbox, claim: () => Promise.reject(new Error('pg down')) },
      sink: t.sink,
      onFailure: (report) => {
        t.reports.push(report)
        throw new Error('logger broke')
      },
    })
    expect(await drainer.drainOnce()).toBe(0)
    expect(t.reports).toEqual([{ kind: 'claim', message: 'pg down', suppressed: 0, total: 1 }])
  })

  it('releases stored records when complete fails, so the retry skips them', async () => {
    const t = setup(1)
    const outbox = { ...t.outbox, complete: () => Promise.reject(new Error('pg down')) }
    const drainer = createAnalyticsDrainer({ outbox, sink: t.sink, onFailure: t.onFailure })
    expect(await drainer.drainOnce()).toBe(0)
    expect(t.reports.map((r) => r.kind)).toEqual(['complete'])
    expect(t.outbox.records()[0]?.attempts).toBe(1)
  })

  it('goes on at once after a full batch, else once per interval; backs off after a failure; stops promptly', async () => {
    const t = setup(3)
    const waits: number[] = []
    let wake: (() => void) | undefined
    const drainer = createAnalyticsDrainer({
      outbox: t.outbox,
      sink: t.sink,
      batchSize: 2,
      intervalMs: 1_000,
      now: t.clock.now,
      random: () => 0,
      onFailure: t.onFailure,
      sleep: (ms, signal) =>
        new Promise<void>((resolve) => {
          waits.push(ms)
          wake = resolve
          signal.addEventListener('abort', () => resolve(), { once: true })
        }),
    })
    const next = async () => {
      const before = waits.length
      wake?.()
      while (waits.length === before) await new Promise((r) => setTimeout(r, 1))
    }
    drainer.start()
    drainer.start()
    // A full batch of 2, then the last record, then the first wait.
    await next()
    expect(t.batches.map((b) => b.length)).toEqual([2, 1])
    t.fail(new Error('down'))
    t.outbox.enqueue({ kind: 'event', row: eventRowFixture() })
    await next()
    t.fail()
    await next()
    expect(waits).toEqual([1_000, 500, 1_000])
    expect(drainer.stats()).toMatchObject({ running: true, exported: 3, failures: 1 })
    await drainer.stop()
    expect(drainer.stats().running).toBe(false)
  })

  it('stop() waits for the batch in flight', async () => {
    const t = setup(1)
    let finish: (() => void) | undefined
    const sink: AnalyticsSink = {
      insert: (records) =>
        new Promise((resolve) => {
          finish = () => resolve({ inserted: records.length, skipped: 0 })
        }),
    }
    const drainer = createAnalyticsDrainer({ outbox: t.outbox, sink })
    drainer.start()
    while (!finish) await new Promise((r) => setTimeout(r, 1))
    let stopped = false
    const stopping = drainer.stop().then(() => {
      stopped = true
    })
    await new Promise((r) => setTimeout(r, 10))
    expect(stopped).toBe(false)
    finish()
    await stopping
    expect(drainer.stats()).toMatchObject({ running: false, exported: 1 })
    expect(t.outbox.records()).toEqual([])
  })
})
