// The engine's readiness check (`GET /health/ready`) over the store's ping on PGlite: ready
// while the database answers, 503 with Retry-After once it is gone.

import { openTestEngine } from '@tis/test-utils/engine'
import { describe, expect, it } from 'vitest'

describe('engine.readiness over PGlite', () => {
  it('answers 200 while the database answers and 503 once it is closed', async () => {
    // No reuse of answers: each call pings.
    const { engine, store } = await openTestEngine({ config: { readiness: { cacheMs: 0 } } })
    try {
      expect(await engine.readiness()).toMatchObject({
        status: 200,
        body: { status: 'ok', store: 'ok' },
      })
    } finally {
      await engine.stop()
      await store.close()
    }
    const res = await engine.readiness()
    expect(res.status).toBe(503)
    expect(res.headers['Retry-After']).toBe('5')
    expect(res.body).toMatchObject({ status: 'unavailable', store: 'unreachable' })
  })
})
