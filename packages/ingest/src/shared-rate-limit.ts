import type { RateLimitStore, WindowIncrement } from './ports'
import { type RateLimiter, type RateLimitState, windowState } from './rate-limit'

/** Options of {@link createSharedRateLimiter}. */
export interface SharedRateLimiterOptions {
  /**
   * Increment statements in flight at once; hits arriving meanwhile wait and go together in the
   * next statement (group commit).
   * @default 1
   */
  readonly maxInFlight?: number
  /**
   * How often counters of ended windows are deleted, in ms.
   * @default 60000
   */
  readonly pruneEveryMs?: number
  /** Called when pruning fails (the hits themselves reject instead). */
  readonly onPruneError?: (error: unknown) => void
}

interface PendingHit {
  readonly key: string
  readonly limit: number
  readonly windowSeconds: number
  readonly windowStart: number
  readonly at: Date
  /** Hits this call counts (a batch counts each envelope). */
  readonly count: number
  resolve(state: RateLimitState): void
  reject(error: unknown): void
}

/**
 * A fixed-window limiter whose counters live in the store, exact across any number of server
 * instances: hits are group-committed, one statement per tick increments each (key, window) row
 * by the number of hits it got, and hit `i` of a group whose row now holds `total` is hit number
 * `total - n + i` of the window, allowed iff that is within the cap. When the store fails, the
 * hits reject (fail closed: the request answers 503 and nothing is stored).
 */
export function createSharedRateLimiter(
  store: RateLimitStore,
  options: SharedRateLimiterOptions = {},
): RateLimiter {
  const maxInFlight = options.maxInFlight ?? 1
  const pruneEveryMs = options.pruneEveryMs ?? 60_000
  let pending: PendingHit[] = []
  let inFlight = 0
  let scheduled = false
  let lastPrune = 0

  function schedule() {
    if (scheduled || inFlight >= maxInFlight || pending.length === 0) return
    scheduled = true
    queueMicrotask(() => {
      scheduled = false
      void flush()
    })
  }

  async function flush() {
    if (inFlight >= maxInFlight || pending.length === 0) return
    const hits = pending
    pending = []
    inFlight += 1
    // One counter per (key, window): the hits of a group take consecutive ordinals in it.
    const groups = new Map<string, PendingHit[]>()
    for (const hit of hits) {
      const id = `${hit.windowStart}:${hit.windowSeconds}:${hit.key}`
      const group = groups.get(id)
      if (group) group.push(hit)
      else groups.set(id, [hit])
    }
    const list = [...groups.values()]
    const increments: WindowIncrement[] = list.map((group) => ({
      key: `${group[0]!.windowSeconds}:${group[0]!.key}`,
      windowStart: group[0]!.windowStart,
      windowSeconds: group[0]!.windowSeconds,
      count: group.reduce((sum, hit) => sum + hit.count, 0),
    }))
    try {
      const totals = await store.incrementWindows(increments)
      list.forEach((group, i) => {
        let total = (totals[i] ?? 0) - increments[i]!.count
        // Hits given back (a refused batch) count first, so the hits beside them see them free.
        for (const hit of group.sort((x, y) => Math.sign(x.count) - Math.sign(y.count))) {
          total += hit.count
          hit.resolve(windowState(total, hit.limit, hit.windowSeconds, hit.at))
        }
      })
    } catch (error) {
      for (const hit of hits) hit.reject(error)
    } finally {
      inFlight -= 1
      prune(hits[0]?.at)
      schedule()
    }
  }

  function prune(at: Date | undefined) {
    if (!at || at.getTime() - lastPrune < pruneEveryMs) return
    lastPrune = at.getTime()
    store.pruneWindows(at).catch((error: unknown) => options.onPruneError?.(error))
  }

  return {
    hit(key, limit, windowSeconds, at, count = 1) {
      const windowStart = Math.floor(at.getTime() / 1000 / windowSeconds) * windowSeconds
      return new Promise<RateLimitState>((resolve, reject) => {
        pending.push({ key, limit, windowSeconds, windowStart, at, count, resolve, reject })
        schedule()
      })
    },
  }
}
