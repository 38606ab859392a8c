import {
  call,
  createClient,
  freshIp,
  type Harness,
  startPgliteHarness,
} from '@tis/test-utils/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

// SERVICE_TRUSTED_PROXIES empty (the default): X-Forwarded-For is ignored, so a client cannot
// dodge the authentication-failure cap by inventing a new address per request.
describe('authentication-failure cap without trusted proxies', () => {
  let harness: Harness
  beforeAll(async () => {
    harness = await startPgliteHarness({ SERVICE_TRUSTED_PROXIES: '' })
  })
  afterAll(() => harness?.close())

  it('counts every failure from the socket address, whatever X-Forwarded-For claims', async () => {
    const bad = { apiKey: 'tis_not_a_key', json: { event: { event_type: 'log', message: 'x' } } }
    // The cap's window is a fixed minute: do not start within 5 s of its end.
    const left = 60 - ((Date.now() / 1000) % 60)
    if (left < 5) await new Promise((resolve) => setTimeout(resolve, left * 1000 + 100))
    const statuses: number[] = []
    for (let i = 0; i < 6; i++) {
      statuses.push(
        (await call(harness.url, 'POST', '/api/v1/ingest_events', { ...bad, ip: freshIp() }))
          .status,
      )
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429])
    // A valid key from the same address still works.
    const { key } = await createClient(harness.url).projectWithKey()
    const ok = await call(harness.url, 'POST', '/api/v1/ingest_events', { ...bad, apiKey: key })
    expect(ok.status).toBe(201)
  })
})
