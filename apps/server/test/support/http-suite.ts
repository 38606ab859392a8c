import type { Harness } from '@tis/test-utils/server'
import { call } from '@tis/test-utils/server'
import { describe, expect, it } from 'vitest'

/** Routes outside the engine: health, the OpenAPI document, 404, 405 and the body cap. */
export function describeHttp(harness: () => Harness) {
  const api = (method: string, path: string, options = {}) =>
    call(harness().url, method, path, options)

  it.each([
    ['GET', '/health', 200, { status: 'ok' }],
    [
      'GET',
      '/health/ready',
      200,
      {
        status: 'ok',
        store: 'ok',
        projection: {
          records: 0,
          seconds: 0,
          max_seconds: 60,
          lagging: false,
          measured_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        },
      },
    ],
    ['GET', '/health/analytics_store', 200, { status: 'disabled', enabled: false, ready: false }],
    ['GET', '/api/v1/nope', 404, { error: 'Not found' }],
    ['POST', '/', 404, { error: 'Not found' }],
    ['GET', '/api/v1/ingest_events', 405, { error: 'Method not allowed' }],
    ['PUT', '/api/v1/projects', 405, { error: 'Method not allowed' }],
  ])('%s %s → %i', async (method, path, status, body) => {
    const r = await api(method, path)
    expect(r.status).toBe(status)
    expect(r.body).toEqual(body)
    expect(r.headers.get('content-type')).toBe('application/json')
    expect(r.headers.get('x-request-id')).toBeTruthy()
  })

  it('serves the OpenAPI 3.1.0 document with ingestion and management paths', async () => {
    const r = await api('GET', '/api/v1/openapi.json')
    expect(r.status).toBe(200)
    expect(r.body.openapi).toBe('3.1.0')
    expect(r.body.info.version).toBe('2.8')
    expect(Object.keys(r.body.paths)).toEqual(
      expect.arrayContaining(['/api/v1/ingest_events', '/api/v1/check_ins', '/api/v1/projects']),
    )
  })

  describe('413 body cap (SERVICE_MAX_BODY_BYTES=65536)', () => {
    const tooLarge = { error: 'request body is too large (maximum is 65536 bytes)' }
    const big = JSON.stringify({ event: { event_type: 'log', message: 'x'.repeat(70_000) } })

    it.each(['/api/v1/ingest_events', '/api/v1/check_ins', '/api/v1/projects'])(
      'refuses a larger body on %s',
      async (path) => {
        const r = await api('POST', path, { text: big, apiKey: 'tis_whatever' })
        expect(r.status).toBe(413)
        expect(r.body).toEqual(tooLarge)
      },
    )

    it('refuses a chunked body without Content-Length once it passes the cap', async () => {
      const chunk = new TextEncoder().encode('x'.repeat(16_384))
      let sent = 0
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent++ < 64) controller.enqueue(chunk)
          else controller.close()
        },
      })
      const response = await fetch(`${harness().url}/api/v1/ingest_events`, {
        method: 'POST',
        body,
        duplex: 'half',
        headers: { 'Content-Type': 'application/json' },
      } as RequestInit)
      expect(response.status).toBe(413)
      expect(await response.json()).toEqual(tooLarge)
    })
  })
}
