// The engine's readiness check (`GET /health/ready`) over this adapter's ping on PGlite: ready
// while the database answers, 503 with Retry-After once it is gone.

import { createIngestEngine } from '@tis/ingest'
import { describe, expect, it } from 'vitest'
import { openPgliteStore } from '../src/index'

describe('engine.readiness over PGlite', () => {
  it('answers 200 while the database answers and 503 once it is closed', async () => {
    const store = await openPgliteStore(undefined)
    // No reuse of answers: each call pings.
    const engine = createIngestEngine({ store, readiness: { cacheMs: 0 } })
    try {
      expect(await engine.readiness()).toMatchObject({
        status: 200,
        body: { status: 'ok', store: 'ok' },
      })
    } finally {
      await store.close()
    }
    const res = await engine.readiness()
    expect(res.status).toBe(503)
    expect(res.headers['Retry-After']).toBe('5')
    expect(res.body).toMatchObject({ status: 'unavailable', store: 'unreachable' })
    await engine.close()
  })
})
