import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createReadinessCheck } from './readiness'

const READY = { status: 200, body: { status: 'ok', store: 'ok' } }

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

describe('createReadinessCheck', () => {
  it('answers 200 when the store has no ping', async () => {
    const check = createReadinessCheck({})
    expect(await check()).toMatchObject(READY)
  })

  it('answers 200 when the ping resolves', async () => {
    const check = createReadinessCheck({ ping: async () => {} })
    expect(await check()).toMatchObject(READY)
  })

  it.each([
    ['rejects', () => Promise.reject(new Error('connect ECONNREFUSED 10.0.0.5:5432'))],
    [
      'throws synchronously',
      () => {
        throw new Error('boom')
      },
    ],
  ])(
    'answers 503 with Retry-After when the ping %s, without leaking the error',
    async (_c, ping) => {
      const unready = vi.fn()
      const check = createReadinessCheck({ ping, onUnready: unready })
      const res = await check()
      expect(res.status).toBe(503)
      expect(res.headers['Retry-After']).toBe('5')
      expect(res.body).toEqual({
        status: 'unavailable',
        store: 'unreachable',
        message: 'the primary store failed a trivial query (see the server log)',
      })
      expect(JSON.stringify(res.body)).not.toContain('10.0.0.5')
      expect(unready).toHaveBeenCalledOnce()
    },
  )

  it('answers 503 once the timeout passes when the ping hangs', async () => {
    const check = createReadinessCheck({ ping: () => new Promise(() => {}), timeoutMs: 2000 })
    let answer: Awaited<ReturnType<typeof check>> | undefined
    void check().then((r) => {
      answer = r
    })
    await vi.advanceTimersByTimeAsync(1999)
    expect(answer).toBeUndefined()
    await vi.advanceTimersByTimeAsync(1)
    expect(answer?.status).toBe(503)
    expect(answer?.headers['Retry-After']).toBe('5')
    expect(answer?.body).toMatchObject({
      message: 'the primary store did not answer within 2000 ms',
    })
  })

  it('shares one ping among concurrent probes and reuses the answer for cacheMs', async () => {
    const ping = vi.fn(async () => {})
    const check = createReadinessCheck({ ping, cacheMs: 1000 })
    const answers = await Promise.all(Array.from({ length: 50 }, () => check()))
    expect(answers.every((a) => a.status === 200)).toBe(true)
    await vi.advanceTimersByTimeAsync(999)
    await check()
    expect(ping).toHaveBeenCalledTimes(1)
    await vi.advanceTimersByTimeAsync(1)
    await check()
    expect(ping).toHaveBeenCalledTimes(2)
  })

  it('keeps at most one ping in flight while the store hangs, and recovers when it answers', async () => {
    let release: () => void = () => {}
    const ping = vi.fn(
      () =>
        new Promise<void>((resolve) => {
          release = resolve
        }),
    )
    const unready = vi.fn()
    const check = createReadinessCheck({ ping, timeoutMs: 2000, cacheMs: 1000, onUnready: unready })
    for (let i = 0; i < 3; i++) {
      const pending = check()
      await vi.advanceTimersByTimeAsync(2000)
      expect((await pending).status).toBe(503)
      await vi.advanceTimersByTimeAsync(1000)
    }
    expect(ping).toHaveBeenCalledOnce()
    expect(unready).toHaveBeenCalledOnce()
    release()
    expect(await check()).toMatchObject(READY)
  })
})
