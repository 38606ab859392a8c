import { describe, expect, it } from 'vitest'
import type { ProjectionRound } from './ports'
import { createProjector } from './projector'

/** A log of `pending` entries projected `roundSize` at a time, recording what was asked. */
function fakeLog(pending: number, options: { failFirst?: number; roundDelayMs?: number } = {}) {
  let left = pending
  let failures = options.failFirst ?? 0
  const rounds: number[] = []
  const maintained: Date[] = []
  return {
    rounds,
    maintained,
    add(n: number) {
      left += n
    },
    store: {
      async project(limit: number): Promise<ProjectionRound> {
        if (options.roundDelayMs) await new Promise((r) => setTimeout(r, options.roundDelayMs))
        if (failures > 0) {
          failures--
          throw new Error('connection reset')
        }
        const projected = Math.min(limit, left)
        left -= projected
        rounds.push(projected)
        return { busy: false, projected, more: projected === limit }
      },
      async maintainLog(now: Date) {
        maintained.push(now)
        return { created: [], dropped: [] }
      },
    },
  }
}

const until = async (condition: () => boolean, ms = 2000) => {
  const end = Date.now() + ms
  while (!condition()) {
    if (Date.now() > end) throw new Error('condition not met in time')
    await new Promise((r) => setTimeout(r, 1))
  }
}

describe('createProjector', () => {
  it('runs full rounds back to back until the log is caught up, then idles', async () => {
    const log = fakeLog(2_500)
    const projector = createProjector({ store: log.store, roundSize: 1000, idleMs: 60_000 })
    projector.start()
    await until(() => log.rounds.length >= 3)
    await new Promise((r) => setTimeout(r, 20))
    expect(log.rounds).toEqual([1000, 1000, 500])
    await projector.stop()
  })

  it('wakes from its idle wait when nudged, long before idleMs', async () => {
    const log = fakeLog(0)
    const projector = createProjector({ store: log.store, idleMs: 60_000 })
    projector.start()
    await until(() => log.rounds.length === 1)
    log.add(7)
    projector.nudge()
    await until(() => log.rounds.length === 2, 500)
    expect(log.rounds).toEqual([0, 7])
    await projector.stop()
  })

  it('lets appends gather for lingerMs after a nudge, unless a read hurries it', async () => {
    const log = fakeLog(0)
    const projector = createProjector({
      store: log.store,
      idleMs: 60_000,
      lingerMs: 150,
      gather: 100,
    })
    projector.start()
    await until(() => log.rounds.length === 1)
    log.add(3)
    projector.nudge()
    log.add(4)
    projector.nudge()
    await new Promise((r) => setTimeout(r, 60))
    expect(log.rounds).toEqual([0])
    await until(() => log.rounds.length === 2, 1_000)
    expect(log.rounds).toEqual([0, 7])
    log.add(2)
    projector.nudge()
    projector.hurry()
    await until(() => log.rounds.length === 3, 50)
    expect(log.rounds).toEqual([0, 7, 2])
    log.add(100)
    projector.nudge(100)
    await until(() => log.rounds.length === 4, 50)
    expect(log.rounds).toEqual([0, 7, 2, 100])
    await projector.stop()
  })

  it('tells listeners after rounds that projected something, not after empty ones', async () => {
    const log = fakeLog(3)
    const projector = createProjector({ store: log.store, idleMs: 5 })
    let told = 0
    const unsubscribe = projector.onProgress(() => told++)
    projector.start()
    await until(() => log.rounds.length >= 4)
    expect(told).toBe(1)
    unsubscribe()
    log.add(1)
    projector.nudge()
    await until(() => log.rounds.includes(1))
    expect(told).toBe(1)
    await projector.stop()
  })

  it('reports a failed round and retries it after retryMs', async () => {
    const log = fakeLog(5, { failFirst: 2 })
    const errors: string[] = []
    const projector = createProjector({
      store: log.store,
      retryMs: 5,
      idleMs: 60_000,
      onError: (error, during) => errors.push(`${during}: ${(error as Error).message}`),
    })
    projector.start()
    await until(() => log.rounds.length === 1)
    expect(errors).toEqual(['projection: connection reset', 'projection: connection reset'])
    expect(log.rounds).toEqual([5])
    await projector.stop()
  })

  it('lets the running round finish when stopped, and runs no other', async () => {
    const log = fakeLog(10, { roundDelayMs: 50 })
    const projector = createProjector({ store: log.store, roundSize: 5, idleMs: 60_000 })
    projector.start()
    await new Promise((r) => setTimeout(r, 10))
    await projector.stop()
    expect(log.rounds).toEqual([5])
  })

  it('projects what is pending when stopped with drainMs, bounded by it', async () => {
    const log = fakeLog(10, { roundDelayMs: 20 })
    const projector = createProjector({ store: log.store, roundSize: 5, idleMs: 60_000 })
    projector.start()
    await new Promise((r) => setTimeout(r, 5))
    await projector.stop({ drainMs: 5_000 })
    // The running round, then the drain until a round is not full (this log's last is empty).
    expect(log.rounds).toEqual([5, 5, 0])
    // A drain stops at its bound even when entries keep waiting.
    const slow = fakeLog(100, { roundDelayMs: 30 })
    const bounded = createProjector({ store: slow.store, roundSize: 5, idleMs: 60_000 })
    bounded.start()
    await new Promise((r) => setTimeout(r, 5))
    await bounded.stop({ drainMs: 50 })
    expect(slow.rounds.length).toBeGreaterThanOrEqual(2)
    expect(slow.rounds.length).toBeLessThan(6)
  })

  it('reports a failed drain round and stops all the same', async () => {
    const log = fakeLog(10, { roundDelayMs: 20 })
    const errors: string[] = []
    const projector = createProjector({
      store: log.store,
      roundSize: 5,
      idleMs: 60_000,
      onError: (error, during) => errors.push(`${during}: ${(error as Error).message}`),
    })
    projector.start()
    await new Promise((r) => setTimeout(r, 5))
    log.store.project = async () => {
      throw new Error('connection reset')
    }
    await projector.stop({ drainMs: 5_000 })
    expect(errors).toEqual(['drain: connection reset'])
    expect(log.rounds).toEqual([5])
  })

  it('maintains the log once at start, then only every maintainEveryMs', async () => {
    const log = fakeLog(0)
    let now = new Date('2026-11-26T00:00:00Z')
    const projector = createProjector({
      store: log.store,
      idleMs: 1,
      maintainEveryMs: 3_600_000,
      now: () => now,
    })
    projector.start()
    await until(() => log.rounds.length >= 3)
    expect(log.maintained).toHaveLength(1)
    now = new Date('2026-11-26T01:00:00Z')
    await until(() => log.maintained.length === 2)
    await projector.stop()
  })
})
