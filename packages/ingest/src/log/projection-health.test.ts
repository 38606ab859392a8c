import { describe, expect, it } from 'vitest'
import { json } from '../http'
import { withProjectionLag } from './projection-health'

const ready = async () => json(200, { status: 'ok', store: 'ok' }, { 'Cache-Control': 'no-store' })

describe('withProjectionLag', () => {
  it('adds the lag in records and seconds to a ready answer', async () => {
    const check = withProjectionLag(ready, {
      store: { projectionLag: async () => ({ records: 3, oldestReceivedAt: new Date(9_000) }) },
      clock: () => 10_000,
    })
    expect((await check()).body).toEqual({
      status: 'ok',
      store: 'ok',
      projection: {
        records: 3,
        seconds: 1,
        max_seconds: 60,
        lagging: false,
        measured_at: new Date(10_000).toISOString(),
      },
    })
  })

  it('says lagging (still 200: acceptance works) above the bound', async () => {
    const check = withProjectionLag(ready, {
      store: { projectionLag: async () => ({ records: 9, oldestReceivedAt: new Date(0) }) },
      maxLagSeconds: 5,
      clock: () => 6_000,
    })
    const response = await check()
    expect(response.status).toBe(200)
    expect(response.body).toMatchObject({
      status: 'lagging',
      projection: { records: 9, seconds: 6, max_seconds: 5, lagging: true },
    })
  })

  it('passes an unready answer through without measuring', async () => {
    let measured = 0
    const unready = async () => json(503, { status: 'unavailable' })
    const check = withProjectionLag(unready, {
      store: {
        projectionLag: async () => {
          measured++
          return { records: 0, oldestReceivedAt: null }
        },
      },
    })
    expect(await check()).toEqual(await unready())
    expect(measured).toBe(0)
  })

  it('measures at most once per cacheMs however often it is probed', async () => {
    let measured = 0
    let now = 0
    const check = withProjectionLag(ready, {
      store: {
        projectionLag: async () => {
          measured++
          return { records: 0, oldestReceivedAt: null }
        },
      },
      clock: () => now,
    })
    await Promise.all([check(), check(), check()])
    now = 999
    await check()
    expect(measured).toBe(1)
    now = 1_000
    await check()
    expect(measured).toBe(2)
  })
})
