import { describe, expect, it } from 'vitest'
import { post, setup } from '../test/support/fake-engine'

describe('client IP', () => {
  const xff = { 'X-Forwarded-For': '203.0.113.9, 10.0.0.1' }

  it('ignores X-Forwarded-For unless proxies are trusted', async () => {
    const { app, calls } = setup()
    await app.request('/api/v1/ingest_events', post('{}', xff))
    expect(calls[0]?.request.ip).toBeUndefined()
  })

  // What @hono/node-server passes as `c.env`: the socket of the connection.
  const fromPeer = (remoteAddress: string) => ({ incoming: { socket: { remoteAddress } } })

  it.each([
    ['no trusted proxies', [], '10.0.0.1', '10.0.0.1'],
    ['a peer that is not a trusted proxy', ['10.9.9.9'], '10.0.0.1', '10.0.0.1'],
    ['a trusted proxy (IPv4-mapped peer)', ['10.0.0.1'], '::ffff:10.0.0.1', '203.0.113.9'],
    ['any peer trusted with *', ['*'], '192.0.2.1', '203.0.113.9'],
  ])('with %s, uses the right address', async (_rule, trusted, peer, expected) => {
    const { app, calls } = setup(undefined, { trustedProxies: trusted })
    await app.request('/api/v1/ingest_events', post('{}', xff), fromPeer(peer))
    expect(calls[0]?.request.ip).toBe(expected)
  })

  it('takes the first X-Forwarded-For hop from a trusted proxy', async () => {
    const { app, calls } = setup(undefined, { trustedProxies: ['*'] })
    await app.request('/api/v1/ingest_events', post('{}', xff))
    expect(calls[0]?.request.ip).toBe('203.0.113.9')
  })
})

describe('CORS on the browser-facing ingest endpoints', () => {
  const PAGE = 'https://shop.example.com'
  const preflight = (origin: string) => ({
    method: 'OPTIONS',
    headers: {
      Origin: origin,
      'Access-Control-Request-Method': 'POST',
      'Access-Control-Request-Headers': 'authorization, content-type',
    },
  })

  it.each(['/api/v1/ingest_events', '/api/v1/check_ins', '/api/42/envelope/', '/api/42/store'])(
    'answers the preflight of %s with 204 and the CORS headers, before the 405',
    async (path) => {
      const { app, calls } = setup()
      const res = await app.request(path, preflight(PAGE))
      expect(res.status).toBe(204)
      expect(Object.fromEntries(res.headers)).toMatchObject({
        'access-control-allow-origin': '*',
        'access-control-allow-methods': 'POST, OPTIONS',
        'access-control-allow-headers':
          'Authorization, X-Api-Key, Content-Type, Content-Encoding, X-Logister-Batch-Id, X-Sentry-Auth',
        'access-control-max-age': '7200',
        'access-control-expose-headers':
          'Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, X-Sentry-Rate-Limits',
      })
      expect(res.headers.get('vary')).toBeNull()
      expect(calls).toHaveLength(0)
    },
  )

  it.each([
    [201, { 'X-RateLimit-Remaining': '4' }],
    [401, {}],
    [422, {}],
    [429, { 'Retry-After': '7' }],
  ])('puts the CORS headers on a %i too, so the page can read it', async (status, headers) => {
    const { app } = setup(() => ({ status, headers, body: { error: 'x' } }))
    const res = await app.request('/api/v1/ingest_events', post('{}', { Origin: PAGE }))
    expect(res.status).toBe(status)
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    expect(res.headers.get('access-control-expose-headers')).toContain('Retry-After')
  })

  it('puts them on a 413 from the body cap and on a 500', async () => {
    const { app } = setup(() => {
      throw new Error('boom')
    })
    const big = await app.request('/api/v1/check_ins', post('x'.repeat(100), { Origin: PAGE }))
    expect(big.status).toBe(413)
    expect(big.headers.get('access-control-allow-origin')).toBe('*')
    const broken = await app.request('/api/v1/check_ins', post('{}', { Origin: PAGE }))
    expect(broken.status).toBe(500)
    expect(broken.headers.get('access-control-allow-origin')).toBe('*')
  })

  it('echoes an allowed origin with Vary: Origin when origins are listed', async () => {
    const { app } = setup(undefined, { http: { corsOrigins: [PAGE, 'http://localhost:5173'] } })
    const res = await app.request('/api/v1/ingest_events', preflight(PAGE))
    expect(res.status).toBe(204)
    expect(res.headers.get('access-control-allow-origin')).toBe(PAGE)
    expect(res.headers.get('vary')).toBe('Origin')
    const sent = await app.request('/api/v1/ingest_events', post('{}', { Origin: PAGE }))
    expect(sent.headers.get('access-control-allow-origin')).toBe(PAGE)
    expect(sent.headers.get('vary')).toBe('Origin')
  })

  it('gives a disallowed origin the same answers without any CORS header', async () => {
    const { app, calls } = setup(undefined, { http: { corsOrigins: [PAGE] } })
    for (const res of [
      await app.request('/api/v1/ingest_events', preflight('https://evil.example')),
      await app.request('/api/v1/ingest_events', post('{}', { Origin: 'https://evil.example' })),
      await app.request('/api/v1/ingest_events', post('{}')),
    ]) {
      expect([...res.headers.keys()].filter((h) => h.startsWith('access-control-'))).toEqual([])
      expect(res.headers.get('vary')).toBe('Origin')
    }
    expect(calls).toHaveLength(2)
  })

  it.each(['/api/v1/deployments', '/api/v1/mobile_ingest_tokens', '/api/v1/projects'])(
    'leaves %s (trusted backends and the management API) without CORS',
    async (path) => {
      const { app } = setup()
      const res = await app.request(path, preflight(PAGE))
      expect(res.status).toBe(405)
      expect(res.headers.get('access-control-allow-origin')).toBeNull()
    },
  )
})
