import { describe, expect, it } from 'vitest'
import { json } from '../http'
import type { LogTarget, ProjectionLag } from './ports'
import {
  createReadBarrier,
  PROJECTION_LAG_HEADER,
  PROJECTION_LAG_RECORDS_HEADER,
  withReadBarrier,
} from './read-barrier'

/** A projection at position `at` of a log whose last committed entry is `head`. */
function fakeProjection(head: number, at: number, oldest: Date | null = null) {
  const state = { head, at, calls: { target: 0, check: 0 }, fail: false }
  const target = (seq: number) => ({ __logTarget: true, seq }) as LogTarget
  return {
    state,
    store: {
      async pendingTarget() {
        state.calls.target++
        if (state.fail) throw new Error('database down')
        return state.at >= state.head ? null : target(state.head)
      },
      async hasProjected(t: LogTarget) {
        state.calls.check++
        return state.at >= (t['seq'] as number)
      },
      async projectionLag(): Promise<ProjectionLag> {
        return { records: state.head - state.at, oldestReceivedAt: oldest }
      },
    },
  }
}

describe('createReadBarrier', () => {
  it('costs one query and no wait when the projection is caught up', async () => {
    const p = fakeProjection(10, 10)
    expect(await createReadBarrier({ store: p.store }).wait()).toBeNull()
    expect(p.state.calls).toEqual({ target: 1, check: 0 })
  })

  it('waits until the projection passed what was committed when the read began', async () => {
    const p = fakeProjection(10, 4)
    setTimeout(() => {
      p.state.head = 12 // committed after the read began: not waited for
      p.state.at = 10
    }, 30)
    const started = Date.now()
    expect(await createReadBarrier({ store: p.store, pollMs: 5 }).wait()).toBeNull()
    expect(Date.now() - started).toBeLessThan(1_500)
    expect(p.state.at).toBe(10)
  })

  it('is woken by the projector in this process instead of polling', async () => {
    const p = fakeProjection(10, 4)
    let listener: (() => void) | undefined
    const barrier = createReadBarrier({
      store: p.store,
      pollMs: 60_000,
      progress: (l) => {
        listener = l
        return () => {
          listener = undefined
        }
      },
    })
    const waiting = barrier.wait()
    await new Promise((r) => setTimeout(r, 20))
    p.state.at = 10
    listener?.()
    expect(await waiting).toBeNull()
    expect(listener).toBeUndefined()
  })

  it('answers with the lag once the bound has passed', async () => {
    let now = 1_000_000
    const p = fakeProjection(10, 4, new Date(now - 3_500))
    const barrier = createReadBarrier({
      store: p.store,
      boundMs: 100,
      pollMs: 1,
      clock: () => {
        now += 10
        return now
      },
    })
    const lag = await barrier.wait()
    expect(lag?.records).toBe(6)
    expect(lag?.seconds).toBeGreaterThan(3.5)
    expect(lag?.seconds).toBeLessThan(4)
  })

  it('with a bound of 0 never waits', async () => {
    const p = fakeProjection(10, 4)
    expect(await createReadBarrier({ store: p.store, boundMs: 0 }).wait()).toEqual({
      records: 6,
      seconds: 0,
    })
  })

  it('leaves a failing store for the read itself to report', async () => {
    const p = fakeProjection(10, 4)
    p.state.fail = true
    expect(await createReadBarrier({ store: p.store }).wait()).toBeNull()
  })
})

describe('withReadBarrier', () => {
  const api = {
    listEvents: async () => json(200, { events: [] }, { 'Cache-Control': 'no-store' }),
    limit: 5,
  }

  it('answers as before, without lag headers, when the projection caught up in time', async () => {
    const reads = withReadBarrier(api, { wait: async () => null })
    expect(await reads.listEvents()).toEqual(await api.listEvents())
    expect(reads.limit).toBe(5)
  })

  it('says how far behind an answer is when the bound ran out', async () => {
    const reads = withReadBarrier(api, { wait: async () => ({ records: 42, seconds: 2.5 }) })
    const response = await reads.listEvents()
    expect(response.headers).toEqual({
      'Cache-Control': 'no-store',
      [PROJECTION_LAG_HEADER]: '2.5',
      [PROJECTION_LAG_RECORDS_HEADER]: '42',
    })
    expect(response.body).toEqual({ events: [] })
  })
})
