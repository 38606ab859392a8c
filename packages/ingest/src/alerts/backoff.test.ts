import { describe, expect, it } from 'vitest'
import { backoffMs, nextAttemptAt, RETRY_WINDOW_MS, retryAfterMs } from './backoff'

const mid = () => 0.5

describe('backoff', () => {
  it.each([
    [1, 10],
    [2, 30],
    [3, 60],
    [4, 120],
    [5, 300],
    [6, 600],
    [7, 900],
    [50, 900],
  ])('waits the schedule step after attempt %i: %i s', (attempts, seconds) => {
    expect(backoffMs(attempts, mid)).toBe(seconds * 1000)
  })

  it('scales each wait by a jitter factor in [0.8, 1.2)', () => {
    expect(backoffMs(1, () => 0)).toBe(8_000)
    expect(backoffMs(1, () => 0.999_999)).toBe(12_000)
  })

  it.each([
    ['120', 120_000],
    ['0', 0],
    [' 5 ', 5_000],
    ['86400', 900_000],
    ['Thu, 26 Nov 2026 14:01:00 GMT', 60_000],
    ['Thu, 26 Nov 2026 13:00:00 GMT', 0],
    ['soon', null],
    ['-5', null],
  ])('reads Retry-After %j as %j ms (capped at 15 min)', (header, ms) => {
    expect(retryAfterMs(header, new Date('2026-11-26T14:00:00Z'))).toBe(ms)
  })

  it('takes the longer of backoff and Retry-After, and gives up past 24 hours', () => {
    const now = new Date('2026-11-26T14:00:00Z')
    const createdAt = now
    expect(nextAttemptAt({ attempts: 1, createdAt, retryAfterMs: 60_000 }, now, mid)).toEqual(
      new Date(now.getTime() + 60_000),
    )
    expect(nextAttemptAt({ attempts: 3, createdAt, retryAfterMs: 1_000 }, now, mid)).toEqual(
      new Date(now.getTime() + 60_000),
    )
    const old = new Date(now.getTime() - RETRY_WINDOW_MS + 10_000)
    expect(nextAttemptAt({ attempts: 1, createdAt: old, retryAfterMs: null }, now, mid)).toEqual(
      new Date(now.getTime() + 10_000),
    )
    expect(
      nextAttemptAt({ attempts: 1, createdAt: old, retryAfterMs: 10_001 }, now, mid),
    ).toBeNull()
  })

  it('spreads attempts over about a day: the schedule gives up after about 100 attempts', () => {
    const createdAt = new Date(0)
    let now = createdAt
    let attempts = 0
    for (;;) {
      attempts++
      const next = nextAttemptAt({ attempts, createdAt, retryAfterMs: null }, now, mid)
      if (!next) break
      now = next
    }
    expect(attempts).toBeGreaterThan(90)
    expect(attempts).toBeLessThan(110)
    expect(now.getTime()).toBeGreaterThan(RETRY_WINDOW_MS - 900_000)
  })
})
