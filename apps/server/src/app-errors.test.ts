import { StoreError } from '@tis/ingest'
import { describe, expect, it } from 'vitest'
import { post, SESSION_SECRET, setup, VALID_TOKEN } from '../test/support/fake-engine'

describe('body size cap', () => {
  const tooLarge = { error: 'request body is too large (maximum is 64 bytes)' }

  it('refuses a declared Content-Length over the cap with 413 before reading', async () => {
    const { app, calls } = setup()
    const res = await app.request('/api/v1/ingest_events', post('x'.repeat(65)))
    expect(res.status).toBe(413)
    expect(await res.json()).toEqual(tooLarge)
    expect(calls).toHaveLength(0)
  })

  it('refuses a streamed body once it passes the cap', async () => {
    const { app, calls } = setup()
    const chunk = new TextEncoder().encode('x'.repeat(40))
    let sent = 0
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 10) controller.enqueue(chunk)
        else controller.close()
      },
    })
    const res = await app.request(
      new Request('http://localhost/api/v1/projects', { method: 'POST', body, duplex: 'half' }),
    )
    expect(res.status).toBe(413)
    expect(await res.json()).toEqual(tooLarge)
    expect(sent).toBeLessThan(10)
    expect(calls).toHaveLength(0)
  })

  it('accepts a body of exactly the cap', async () => {
    const { app, calls } = setup()
    const res = await app.request('/api/v1/check_ins', post('x'.repeat(64)))
    expect(res.status).toBe(201)
    expect(calls[0]?.request.text).toHaveLength(64)
  })

  it('caps the batch endpoint at its own limit, declared or streamed', async () => {
    const { app, calls } = setup(undefined, { http: { maxBodyBytes: 64, maxBatchBodyBytes: 100 } })
    const batch = (body: string | ReadableStream<Uint8Array>) =>
      app.request(
        new Request('http://localhost/api/v1/ingest_events/batch', {
          method: 'POST',
          body,
          duplex: 'half',
        } as RequestInit),
      )
    expect((await batch('x'.repeat(100))).status).toBe(201)
    expect(calls[0]?.request.bytes).toHaveLength(100)
    const over = await batch('x'.repeat(101))
    expect(over.status).toBe(413)
    expect(await over.json()).toEqual({ error: 'request body is too large (maximum is 100 bytes)' })
    const chunk = new TextEncoder().encode('x'.repeat(30))
    let sent = 0
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 4) controller.enqueue(chunk)
        else controller.close()
      },
    })
    expect((await batch(stream)).status).toBe(413)
    // The other endpoints keep theirs.
    expect((await app.request('/api/v1/ingest_events', post('x'.repeat(65)))).status).toBe(413)
    expect(calls).toHaveLength(1)
  })
})

describe('the dashboard at /', () => {
  it.each([
    ['/', '/login'],
    ['/projects', '/login'],
    ['/projects/abc/issues', '/login'],
  ])('GET %s without a session redirects to %s', async (path, location) => {
    const { app, calls } = setup()
    const res = await app.request(path)
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe(location)
    expect(calls).toHaveLength(0)
  })

  it('serves the sign-in page as HTML with a CSRF cookie', async () => {
    const { app } = setup()
    const res = await app.request('/login')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^text\/html/)
    expect(res.headers.get('set-cookie')).toMatch(/tis_login_csrf=.*HttpOnly.*SameSite=Strict/)
    expect(await res.text()).toContain('<form')
  })

  /** Signs in through the form; the Set-Cookie headers of the form and of the sign-in. */
  async function signIn(app: ReturnType<typeof setup>['app']) {
    const form = await app.request('/login')
    const csrfCookie = form.headers.get('set-cookie') ?? ''
    const csrf = /name="_csrf" value="([^"]+)"/.exec(await form.text())?.[1] ?? ''
    const signedIn = await app.request('/login', {
      method: 'POST',
      body: new URLSearchParams({ _csrf: csrf, token: VALID_TOKEN }),
      headers: {
        cookie: csrfCookie.split(';')[0] ?? '',
        'content-type': 'application/x-www-form-urlencoded',
      },
    })
    expect(signedIn.status).toBe(303)
    return { csrfCookie, sessionCookie: signedIn.headers.get('set-cookie') ?? '' }
  }

  it.each([
    ['secureCookies true', { secureCookies: true }, true],
    [
      'secureCookies false with an https public URL',
      { secureCookies: false, publicUrl: 'https://tis.example.com' },
      false,
    ],
    ['no setting, an https public URL', { publicUrl: 'https://tis.example.com' }, true],
    ['no setting, an http public URL', { publicUrl: 'http://tis.example.com' }, false],
    ['no setting, no public URL', {}, false],
  ] as const)(
    'marks both cookies Secure exactly when asked: %s',
    async (_name, options, secure) => {
      const { app } = setup(undefined, options)
      const { csrfCookie, sessionCookie } = await signIn(app)
      expect(sessionCookie).toMatch(
        new RegExp(`^tis_session=${SESSION_SECRET}; Max-Age=3600; Path=/; HttpOnly;`),
      )
      for (const cookie of [csrfCookie, sessionCookie]) {
        expect(cookie).toMatch(/HttpOnly; .*SameSite=Strict/)
        expect(/; Secure(;|$)/.test(cookie)).toBe(secure)
      }
    },
  )

  it('leaves unknown API paths a JSON 404', async () => {
    const { app } = setup()
    for (const path of ['/api/v1/nope', '/api/v2/projects', '/favicon.ico']) {
      const res = await app.request(path)
      expect(res.status).toBe(404)
      expect(await res.json()).toEqual({ error: 'Not found' })
    }
  })
})

describe('errors and logging', () => {
  it('answers a client that went away mid-body with 499, logged at info, not as an error', async () => {
    const { app, lines } = setup(() => {
      throw Object.assign(new Error('aborted'), { code: 'ECONNRESET' })
    })
    const res = await app.request('/api/v1/ingest_events', post('{}'))
    expect(res.status).toBe(499)
    expect(lines.filter((l) => l['level'] === 'error')).toEqual([])
    expect(lines).toContainEqual(
      expect.objectContaining({ level: 'info', msg: 'client aborted the request', status: 499 }),
    )
  })

  it('answers an unexpected error with a generic 500 and logs it', async () => {
    const { app, lines } = setup(() => {
      throw new Error('relation "events" does not exist')
    })
    const res = await app.request('/api/v1/ingest_events', post('{}'))
    expect(res.status).toBe(500)
    const text = await res.text()
    expect(JSON.parse(text)).toEqual({ error: 'Internal server error' })
    expect(text).not.toContain('relation')
    const logged = lines.find((l) => l['level'] === 'error')
    expect(logged).toMatchObject({ msg: 'unhandled error', error: { message: expect.any(String) } })
  })

  it('answers 503 with Retry-After when the database is unavailable', async () => {
    const { app, lines } = setup(() => {
      throw new StoreError('unavailable', 'database unavailable: connect ECONNREFUSED')
    })
    const res = await app.request('/api/v1/check_ins', post('{}'))
    expect(res.status).toBe(503)
    expect(res.headers.get('retry-after')).toBe('5')
    expect(await res.json()).toEqual({ error: 'Service unavailable' })
    expect(lines.find((l) => l['level'] === 'error')).toMatchObject({ msg: 'database unavailable' })
  })

  it('logs one line per request without tokens or bodies, and echoes the request id', async () => {
    const { app, lines } = setup()
    const res = await app.request(
      '/api/v1/ingest_events?x=1',
      post('{"event":{"message":"secret body"}}', {
        Authorization: 'Bearer tis_supersecret',
        'X-Request-Id': 'abc-123',
      }),
    )
    expect(res.headers.get('x-request-id')).toBe('abc-123')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toEqual({
      time: expect.any(String),
      level: 'info',
      msg: 'request',
      method: 'POST',
      path: '/api/v1/ingest_events',
      status: 201,
      duration_ms: expect.any(Number),
      request_id: 'abc-123',
    })
    expect(JSON.stringify(lines)).not.toMatch(/supersecret|secret body/)
  })

  it('generates a request id when none (or an unsafe one) is sent', async () => {
    const { app } = setup()
    const res = await app.request('/health', { headers: { 'X-Request-Id': 'a b;c' } })
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
  })
})
