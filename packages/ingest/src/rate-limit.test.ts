import { describe, expect, it } from 'vitest'
import { createMemoryRateLimiter, rateLimitHeaders, tooManyRequests } from './rate-limit'

describe('memory rate limiter (fixed window)', () => {
  const at = (s: number) => new Date(s * 1000)

  it('allows `limit` hits per window and refuses the next', async () => {
    const limiter = createMemoryRateLimiter()
    const states = []
    for (let i = 0; i < 4; i++) states.push(await limiter.hit('k', 3, 60, at(120 + i)))
    expect(states.map((s) => s.allowed)).toEqual([true, true, true, false])
    expect(states.map((s) => s.remaining)).toEqual([2, 1, 0, 0])
    expect(states[3]).toMatchObject({ limit: 3, reset: 180, retryAfter: 57, windowSeconds: 60 })
  })

  it('starts a fresh count in the next window', async () => {
    const limiter = createMemoryRateLimiter()
    await limiter.hit('k', 1, 60, at(59))
    expect((await limiter.hit('k', 1, 60, at(59.5))).allowed).toBe(false)
    expect((await limiter.hit('k', 1, 60, at(60))).allowed).toBe(true)
  })

  it('gives hits back to their own window, never to a later one', async () => {
    const limiter = createMemoryRateLimiter()
    await limiter.hit('k', 10, 60, at(1), 4)
    expect(await limiter.hit('k', 10, 60, at(2), 8)).toMatchObject({ allowed: false, count: 12 })
    expect(await limiter.hit('k', 10, 60, at(2), -8)).toMatchObject({ count: 4, remaining: 6 })
    expect((await limiter.hit('k', 10, 60, at(3), 6)).allowed).toBe(true)
    // The window ended meanwhile: giving back leaves the new window's count alone.
    await limiter.hit('k', 10, 60, at(61), 9)
    expect(await limiter.hit('k', 10, 60, at(59), -5)).toMatchObject({ count: 0 })
    expect(await limiter.hit('k', 10, 60, at(62))).toMatchObject({ count: 10, allowed: true })
  })

  it('counts keys separately', async () => {
    const limiter = createMemoryRateLimiter()
    await limiter.hit('a', 1, 60, at(0))
    expect((await limiter.hit('b', 1, 60, at(0))).allowed).toBe(true)
  })

  it('Retry-After is at least one second', async () => {
    const limiter = createMemoryRateLimiter()
    await limiter.hit('k', 1, 60, at(59.9))
    const state = await limiter.hit('k', 1, 60, at(59.95))
    expect(state.retryAfter).toBe(1)
  })

  it('builds the 429 body and headers of section 7', async () => {
    const limiter = createMemoryRateLimiter()
    await limiter.hit('k', 1, 60, at(10))
    const state = await limiter.hit('k', 1, 60, at(10))
    expect(tooManyRequests(state)).toEqual({
      status: 429,
      headers: {
        'X-RateLimit-Limit': '1',
        'X-RateLimit-Remaining': '0',
        'X-RateLimit-Reset': '60',
        'Retry-After': '50',
      },
      body: { error: 'Rate limit exceeded', limit: 1, window_seconds: 60, retry_after: 50 },
    })
    expect(rateLimitHeaders(state)['X-RateLimit-Reset']).toBe('60')
  })
})
