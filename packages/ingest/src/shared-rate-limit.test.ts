import { describe, expect, it } from 'vitest'
import type { RateLimitStore, WindowIncrement } from './ports'
import { createSharedRateLimiter } from './shared-rate-limit'

/** Counters in a Map, as one shared database row per (key, window) would hold them. */
function memoryStore() {
  const rows = new Map<string, number>()
  const calls: WindowIncrement[][] = []
  const store: RateLimitStore = {
    async incrementWindows(increments) {
      calls.push([...increments])
      return increments.map((i) => {
        const id = `${i.windowStart}:${i.key}`
        const total = (rows.get(id) ?? 0) + i.count
        rows.set(id, total)
        return total
      })
    },
    async pruneWindows() {},
  }
  return { store, calls }
}

const at = (s: number) => new Date(s * 1000)

describe('shared rate limiter (group-committed counters)', () => {
  it('allows exactly `limit` of many concurrent hits, in one statement per tick', async () => {
    const { store, calls } = memoryStore()
    const limiter = createSharedRateLimiter(store, { maxInFlight: 1 })
    const states = await Promise.all(
      Array.from({ length: 10 }, () => limiter.hit('k', 3, 60, at(120))),
    )
    expect(states.filter((s) => s.allowed)).toHaveLength(3)
    expect(states.map((s) => s.remaining)).toEqual([2, 1, 0, 0, 0, 0, 0, 0, 0, 0])
    expect(calls.length).toBeLessThanOrEqual(2)
  })

  it('two limiters (two instances) over one store never allow more than the cap together', async () => {
    const { store } = memoryStore()
    const [a, b] = [createSharedRateLimiter(store), createSharedRateLimiter(store)]
    const states = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).hit('k', 7, 60, at(0))),
    )
    expect(states.filter((s) => s.allowed)).toHaveLength(7)
  })

  it('counts hits given back in a tick before the other hits of that tick', async () => {
    const { store } = memoryStore()
    const limiter = createSharedRateLimiter(store, { maxInFlight: 1 })
    await limiter.hit('k', 5, 60, at(0), 5)
    // A refund queued after two new hits: both fit once the five are given back.
    const states = await Promise.all([
      limiter.hit('k', 5, 60, at(1)),
      limiter.hit('k', 5, 60, at(1)),
      limiter.hit('k', 5, 60, at(1), -5),
    ])
    expect(states.map((s) => [s.allowed, s.count])).toEqual([
      [true, 1],
      [true, 2],
      [true, 0],
    ])
  })

  it('counts keys and windows separately', async () => {
    const { store } = memoryStore()
    const limiter = createSharedRateLimiter(store)
    await limiter.hit('a', 1, 60, at(0))
    expect((await limiter.hit('b', 1, 60, at(0))).allowed).toBe(true)
    expect((await limiter.hit('a', 1, 60, at(30))).allowed).toBe(false)
    expect((await limiter.hit('a', 1, 60, at(60))).allowed).toBe(true)
  })

  it('fails closed: every hit of a failed statement rejects', async () => {
    const error = new Error('database down')
    const limiter = createSharedRateLimiter({
      incrementWindows: () => Promise.reject(error),
      pruneWindows: async () => {},
    })
    await expect(limiter.hit('k', 5, 60, at(0))).rejects.toBe(error)
  })
})
