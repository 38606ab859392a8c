import { describe, expect, it } from 'vitest'
import { createLoop } from './loop'

const until = async (check: () => boolean, ms = 2_000) => {
  const end = Date.now() + ms
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out')
    await new Promise((r) => setTimeout(r, 5))
  }
}

describe('createLoop', () => {
  it('runs rounds with the pause each returns, never two at once, and stops between them', async () => {
    let rounds = 0
    let inFlight = 0
    let most = 0
    const loop = createLoop({
      intervalMs: 10_000,
      onError: () => {},
      async round() {
        inFlight += 1
        most = Math.max(most, inFlight)
        rounds += 1
        await new Promise((r) => setTimeout(r, 2))
        inFlight -= 1
        return rounds < 5 ? 0 : undefined
      },
    })
    loop.start()
    loop.start()
    await until(() => rounds >= 5)
    void loop.runOnce()
    await loop.stop()
    expect(most).toBe(1)
    const after = rounds
    await new Promise((r) => setTimeout(r, 20))
    expect(rounds).toBe(after)
    expect(loop.running).toBe(false)
  })

  it('reports a failed round and retries after retryMs', async () => {
    const errors: unknown[] = []
    let rounds = 0
    const loop = createLoop({
      intervalMs: 10_000,
      retryMs: 1,
      onError: (error) => errors.push(error),
      async round() {
        rounds += 1
        if (rounds < 3) throw new Error(`round ${rounds}`)
        return undefined
      },
    })
    loop.start()
    await until(() => rounds >= 3)
    await loop.stop()
    expect(errors.map(String)).toEqual(['Error: round 1', 'Error: round 2'])
  })

  it('wake cuts the pause short; stop aborts the round signal and a sleeping round', async () => {
    let rounds = 0
    let aborted = false
    const loop = createLoop({
      intervalMs: 60_000,
      firstDelayMs: 60_000,
      onError: () => {},
      async round({ signal, sleep }) {
        rounds += 1
        if (rounds === 2) {
          await sleep(60_000)
          aborted = signal.aborted
        }
      },
    })
    loop.start()
    loop.wake()
    await until(() => rounds === 1)
    loop.wake()
    await until(() => rounds === 2)
    const started = Date.now()
    await loop.stop()
    expect(Date.now() - started).toBeLessThan(1_000)
    expect(aborted).toBe(true)
  })

  it('runOnce runs a round of a loop that is not started', async () => {
    let rounds = 0
    const loop = createLoop({ intervalMs: 1, onError: () => {}, round: async () => void rounds++ })
    await loop.runOnce()
    expect(rounds).toBe(1)
    expect(loop.running).toBe(false)
  })
})
