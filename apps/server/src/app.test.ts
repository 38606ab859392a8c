import {
  type AccountApi,
  type EngineRequest,
  type EngineResponse,
  type ManagementApi,
  StoreError,
} from '@tis/ingest'
import { describe, expect, it } from 'vitest'
import { type AppOptions, createApp } from './app'
import type { ServerEngine } from './compose'
import { createLogger } from './logger'
import {
  accountRoutes,
  ingestRoutes,
  managementRoutes,
  readRoutes,
  sourceSettingsRoutes,
} from './routes'

type Answer = (
  operation: string,
  request: EngineRequest,
) => EngineResponse | Promise<EngineResponse>

const MANAGEMENT_OPERATIONS = [
  'createUser',
  'createProject',
  'listProjects',
  'getProject',
  'listApiKeys',
  'createApiKey',
  'revokeApiKey',
  'archiveProject',
  'restoreProject',
  'addMember',
  'listMembers',
  'listMobileTokens',
  'revokeMobileToken',
  'getRateLimits',
  'setRateLimits',
] as const

/** The token {@link fakeEngine}'s `account.signIn` accepts. */
const VALID_TOKEN = 'tis_user_valid'
/** The secret session id it answers. */
const SESSION_SECRET = 'S'.repeat(43)

/** An engine that records each call and answers with `answer` (201 `{ok: true}` by default). */
function fakeEngine(answer: Answer = () => ({ status: 201, headers: {}, body: { ok: true } })) {
  const calls: Array<{ operation: string; request: EngineRequest }> = []
  const op = (operation: string) => async (request: EngineRequest) => {
    calls.push({ operation, request })
    return answer(operation, request)
  }
  const management = Object.fromEntries(MANAGEMENT_OPERATIONS.map((name) => [name, op(name)]))
  const engine: ServerEngine = {
    ingest: {
      ingestEvent: op('ingestEvent'),
      ingestEventBatch: op('ingestEventBatch'),
      checkIn: op('checkIn'),
      recordDeployment: op('recordDeployment'),
      mintMobileToken: op('mintMobileToken'),
      forgetCredentials: () => {},
      flush: async () => {},
      close: async () => {},
    },
    management: {
      ...management,
      authenticate: async () => null,
      canSee: async () => false,
    } as unknown as ManagementApi,
    reads: {
      listIssues: op('listIssues'),
      getIssue: op('getIssue'),
      updateIssue: op('updateIssue'),
      listEvents: op('listEvents'),
      listMonitors: op('listMonitors'),
      getMonitor: op('getMonitor'),
      listCheckIns: op('listCheckIns'),
      listDeployments: op('listDeployments'),
      getEvent: op('getEvent'),
      listTransactions: op('listTransactions'),
      getMetric: op('getMetric'),
      listTraces: op('listTraces'),
      getTrace: op('getTrace'),
      getTransactionLatency: op('getTransactionLatency'),
    },
    sourceSettings: {
      getSourceSettings: op('getSourceSettings'),
      setSourceSettings: op('setSourceSettings'),
    },
    account: {
      listSessions: op('listSessions'),
      endSessions: op('endSessions'),
      rotateToken: op('rotateToken'),
      async signIn(token: string) {
        if (token !== VALID_TOKEN) return null
        const at = new Date('2026-01-01T00:00:00Z')
        const expiresAt = new Date(at.getTime() + 3600_000)
        const user = { id: 'u1', email: 'a@b.c', createdAt: at }
        const session = {
          id: 's1',
          userId: 'u1',
          createdAt: at,
          lastSeenAt: at,
          idleExpiresAt: expiresAt,
          expiresAt,
          userAgent: null,
          ip: null,
        }
        return { secret: SESSION_SECRET, session, user, admin: false }
      },
      resolveSession: async () => null,
      signOut: async () => false,
      endsAt: (s) => s.expiresAt,
    } satisfies AccountApi,
    readiness: () => op('readiness')({ headers: {} }),
    flush: async () => {},
    close: async () => {},
  }
  return { engine, calls }
}

function setup(answer?: Answer, options: Partial<AppOptions> = {}) {
  const { engine, calls } = fakeEngine(answer)
  const lines: Record<string, unknown>[] = []
  const logger = createLogger({ level: 'debug', write: (line) => lines.push(JSON.parse(line)) })
  const app = createApp({ engine, logger, maxBodyBytes: 64, trustedProxies: [], ...options })
  return { app, calls, lines, engine }
}

const post = (body: string, headers: Record<string, string> = {}) => ({
  method: 'POST',
  body,
  headers: { 'Content-Type': 'application/json', ...headers },
})

describe('ingest routes', () => {
  it.each([
    ['/api/v1/ingest_events', 'ingestEvent'],
    ['/api/v1/check_ins', 'checkIn'],
    ['/api/v1/deployments', 'recordDeployment'],
  ])('POST %s hands the raw body text and headers to engine.%s', async (path, operation) => {
    const { app, calls } = setup()
    const text = '{"event": not json'
    const res = await app.request(path, post(text, { 'X-Api-Key': 'tis_abc' }))
    expect(res.status).toBe(201)
    expect(calls).toHaveLength(1)
    expect(calls[0]?.operation).toBe(operation)
    expect(calls[0]?.request.text).toBe(text)
    expect(calls[0]?.request.body).toBeUndefined()
    expect((calls[0]!.request.headers as Headers).get('x-api-key')).toBe('tis_abc')
  })

  it("writes the engine's status, headers and JSON body out exactly", async () => {
    const headers = { 'X-RateLimit-Limit': '5', 'Retry-After': '7' }
    const body = { error: 'Rate limit exceeded', limit: 5, window_seconds: 60, retry_after: 7 }
    const { app } = setup(() => ({ status: 429, headers, body }))
    const res = await app.request('/api/v1/ingest_events', post('{}'))
    expect(res.status).toBe(429)
    expect(res.headers.get('x-ratelimit-limit')).toBe('5')
    expect(res.headers.get('retry-after')).toBe('7')
    expect(res.headers.get('content-type')).toBe('application/json')
    expect(await res.json()).toEqual(body)
  })
})

describe('management routes', () => {
  const id = '01a203af-ac77-79d4-9708-1fd9c9d94c22'
  const keyId = '01a203af-af49-72ed-9f69-45751cb49f1e'
  it.each([
    ['POST', '/api/v1/users', 'createUser', {}],
    ['POST', '/api/v1/projects', 'createProject', {}],
    ['GET', '/api/v1/projects', 'listProjects', {}],
    ['GET', `/api/v1/projects/${id}`, 'getProject', { id }],
    ['GET', `/api/v1/projects/${id}/api_keys`, 'listApiKeys', { id }],
    ['POST', `/api/v1/projects/${id}/api_keys`, 'createApiKey', { id }],
    ['DELETE', `/api/v1/projects/${id}/api_keys/${keyId}`, 'revokeApiKey', { id, key_id: keyId }],
    ['POST', `/api/v1/projects/${id}/archive`, 'archiveProject', { id }],
    ['POST', `/api/v1/projects/${id}/restore`, 'restoreProject', { id }],
    ['POST', `/api/v1/projects/${id}/members`, 'addMember', { id }],
    ['GET', `/api/v1/projects/${id}/members`, 'listMembers', { id }],
    ['GET', `/api/v1/projects/${id}/issues`, 'listIssues', { id }],
    ['GET', `/api/v1/projects/${id}/issues/${keyId}`, 'getIssue', { id, issue_id: keyId }],
    ['PATCH', `/api/v1/projects/${id}/issues/${keyId}`, 'updateIssue', { id, issue_id: keyId }],
    ['GET', `/api/v1/projects/${id}/events`, 'listEvents', { id }],
    ['GET', `/api/v1/projects/${id}/monitors`, 'listMonitors', { id }],
    ['GET', `/api/v1/projects/${id}/monitors/${keyId}`, 'getMonitor', { id, monitor_id: keyId }],
    [
      'GET',
      `/api/v1/projects/${id}/monitors/${keyId}/check_ins`,
      'listCheckIns',
      { id, monitor_id: keyId },
    ],
    ['GET', `/api/v1/projects/${id}/deployments`, 'listDeployments', { id }],
    ['GET', `/api/v1/projects/${id}/events/${keyId}`, 'getEvent', { id, event_id: keyId }],
    ['GET', `/api/v1/projects/${id}/transactions`, 'listTransactions', { id }],
    ['GET', `/api/v1/projects/${id}/transactions/latency`, 'getTransactionLatency', { id }],
    ['GET', `/api/v1/projects/${id}/metrics`, 'getMetric', { id }],
    ['GET', `/api/v1/projects/${id}/traces`, 'listTraces', { id }],
    ['GET', `/api/v1/projects/${id}/traces/abc123`, 'getTrace', { id, trace_id: 'abc123' }],
    ['GET', '/api/v1/users/me/sessions', 'listSessions', {}],
    ['DELETE', '/api/v1/users/me/sessions', 'endSessions', {}],
    ['POST', '/api/v1/users/me/token', 'rotateToken', {}],
  ])('%s %s calls management.%s with its path parameters', async (method, path, op, params) => {
    const { app, calls } = setup()
    const res = await app.request(path, { method })
    expect(res.status).toBe(201)
    expect(calls).toEqual([{ operation: op, request: expect.objectContaining({ params }) }])
    expect(calls[0]?.request).not.toHaveProperty('body')
  })

  it('passes the query parameters of a read route', async () => {
    const { app, calls } = setup()
    await app.request(`/api/v1/projects/${id}/events?event_type=error&limit=5`)
    expect(calls[0]?.request.query).toEqual({ event_type: 'error', limit: '5' })
  })

  it('passes the raw body text for the engine to parse', async () => {
    const { app, calls } = setup()
    await app.request('/api/v1/projects', post('{"project":{"name":"a"}}'))
    expect(calls[0]?.request.text).toBe('{"project":{"name":"a"}}')
    expect(calls[0]?.request).not.toHaveProperty('body')
  })

  it('writes a null engine body as an empty response', async () => {
    const { app } = setup(() => ({ status: 204, headers: {}, body: null }))
    const res = await app.request(`/api/v1/projects/${id}/api_keys/${keyId}`, { method: 'DELETE' })
    expect(res.status).toBe(204)
    expect(await res.text()).toBe('')
    expect(res.headers.get('content-type')).toBeNull()
  })
})

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
    const { app, calls } = setup(undefined, { maxBatchBodyBytes: 100 })
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

describe('other routes', () => {
  it.each([
    ['GET', '/health', 200, { status: 'ok' }],
    ['GET', '/health/analytics_store', 200, { status: 'disabled', enabled: false, ready: false }],
    ['GET', '/nope', 404, { error: 'Not found' }],
    ['POST', '/api/v1/mobile_ingest_tokens_x', 404, { error: 'Not found' }],
  ])('%s %s answers %i', async (method, path, status, body) => {
    const { app } = setup()
    const res = await app.request(path, { method })
    expect(res.status).toBe(status)
    expect(res.headers.get('content-type')).toBe('application/json')
    expect(await res.json()).toEqual(body)
  })

  it.each([
    ['ready', { status: 200, headers: {}, body: { status: 'ok', store: 'ok' } }],
    [
      'unreachable',
      {
        status: 503,
        headers: { 'Retry-After': '5', 'Cache-Control': 'no-store' },
        body: { status: 'unavailable', store: 'unreachable', message: 'no answer within 2000 ms' },
      },
    ],
  ])('GET /health/ready writes out the engine readiness (%s)', async (_case, answer) => {
    const { app, calls } = setup((operation) =>
      operation === 'readiness' ? answer : { status: 500, headers: {}, body: null },
    )
    const res = await app.request('/health/ready')
    expect(res.status).toBe(answer.status)
    expect(res.headers.get('content-type')).toBe('application/json')
    for (const [name, value] of Object.entries(answer.headers)) {
      expect(res.headers.get(name)).toBe(value)
    }
    expect(await res.json()).toEqual(answer.body)
    const head = await app.request('/health/ready', { method: 'HEAD' })
    expect(head.status).toBe(answer.status)
    expect(await head.text()).toBe('')
    expect(calls.map((c) => c.operation)).toEqual(['readiness', 'readiness'])
  })

  it.each([
    ['PUT', '/api/v1/projects', 'GET, HEAD, POST'],
    ['GET', '/api/v1/ingest_events', 'OPTIONS, POST'],
    ['DELETE', '/health', 'GET, HEAD'],
    ['POST', '/health/ready', 'GET, HEAD'],
    ['PATCH', '/api/v1/projects/abc/api_keys/def', 'DELETE'],
  ])('%s on known path %s answers 405 with Allow: %s', async (method, path, allow) => {
    const { app, calls } = setup()
    const res = await app.request(path, { method })
    expect(res.status).toBe(405)
    expect(res.headers.get('allow')).toBe(allow)
    expect(await res.json()).toEqual({ error: 'Method not allowed' })
    expect(calls).toHaveLength(0)
  })

  it('serves the OpenAPI document with the management paths', async () => {
    const { app } = setup()
    const res = await app.request('/api/v1/openapi.json')
    const doc = (await res.json()) as {
      openapi: string
      paths: Record<string, unknown>
      components: { schemas: Record<string, { properties: Record<string, unknown> }> }
    }
    expect(doc.openapi).toBe('3.1.0')
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/v1/ingest_events',
        '/api/v1/projects/{id}/api_keys/{key_id}',
        '/api/v1/mobile_ingest_tokens',
        '/api/v1/projects/{id}/mobile_tokens',
        '/api/v1/projects/{id}/mobile_tokens/{token_id}',
        '/api/v1/projects/{id}/rate_limits',
        '/api/v1/projects/{id}/monitors',
        '/api/v1/projects/{id}/deployments',
        '/api/v1/projects/{id}/events/{event_id}',
        '/api/v1/users',
        '/health',
        '/health/ready',
      ]),
    )
    expect(doc.components.schemas['ProjectRequest']?.properties['integration_kind']).toBeDefined()
    expect(doc.components.schemas['Monitor']?.properties['status']).toEqual({
      type: 'string',
      enum: ['ok', 'error', 'missed'],
    })
    expect(doc.components.schemas['Deployment']?.properties['compare_url']).toBeDefined()
    expect(Object.keys(doc.components.schemas['RateLimitRequest']?.properties ?? {})).toEqual([
      'requests',
      'period_seconds',
      'auth_failure_requests',
    ])
  })

  it('documents every route of routes.ts with its method', async () => {
    const { app, engine } = setup()
    const doc = (await (await app.request('/api/v1/openapi.json')).json()) as {
      paths: Record<string, Record<string, { operationId?: string }>>
    }
    const routes = [
      ...ingestRoutes(engine.ingest, () => undefined),
      ...managementRoutes(engine.management, () => undefined),
      ...accountRoutes(engine.account, () => undefined),
      ...readRoutes(engine.reads, () => undefined),
      ...sourceSettingsRoutes(engine.sourceSettings, () => undefined),
    ]
    const missing = routes
      .map((r) => [r.method.toLowerCase(), r.path.replace(/:(\w+)/g, '{$1}')] as const)
      .filter(([method, path]) => doc.paths[path]?.[method] === undefined)
    expect(missing).toEqual([])
  })

  it('documents the performance reads', async () => {
    const { app } = setup()
    const doc = (await (await app.request('/api/v1/openapi.json')).json()) as {
      paths: Record<string, Record<string, { operationId: string; parameters: { name: string }[] }>>
      components: { schemas: Record<string, { required?: string[] }> }
    }
    const reads = '/api/v1/projects/{id}'
    expect(
      ['/transactions', '/metrics', '/traces', '/traces/{trace_id}'].map(
        (p) => doc.paths[`${reads}${p}`]?.['get']?.operationId,
      ),
    ).toEqual(['listTransactions', 'getMetric', 'listTraces', 'getTrace'])
    const names = (p: string) => doc.paths[`${reads}${p}`]?.['get']?.parameters.map((x) => x.name)
    expect(names('/transactions')).toEqual([
      'id',
      'since',
      'until',
      'environment',
      'release',
      'limit',
    ])
    expect(names('/metrics')).toEqual([
      'id',
      'name',
      'since',
      'until',
      'interval',
      'environment',
      'release',
    ])
    expect(names('/traces')).toEqual([
      'id',
      'kind',
      'since',
      'until',
      'environment',
      'release',
      'q',
      'limit',
      'cursor',
    ])
    expect(doc.components.schemas['Transaction']?.required).toEqual([
      'name',
      'count',
      'error_count',
      'error_rate',
      'p50_ms',
      'p95_ms',
      'p99_ms',
      'avg_ms',
    ])
    expect(doc.components.schemas['MetricBucket']?.required).toEqual([
      'start',
      'count',
      'sum',
      'min',
      'max',
      'avg',
    ])
    expect(doc.components.schemas['TraceDetail']?.required).toContain('truncated')
    expect(doc.components.schemas['Span']?.required).toContain('parent_span_id')
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

  it.each(['/api/v1/ingest_events', '/api/v1/check_ins'])(
    'answers the preflight of %s with 204 and the CORS headers, before the 405',
    async (path) => {
      const { app, calls } = setup()
      const res = await app.request(path, preflight(PAGE))
      expect(res.status).toBe(204)
      expect(Object.fromEntries(res.headers)).toMatchObject({
        'access-control-allow-origin': '*',
        'access-control-allow-methods': 'POST, OPTIONS',
        'access-control-allow-headers':
          'Authorization, X-Api-Key, Content-Type, Content-Encoding, X-Logister-Batch-Id',
        'access-control-max-age': '7200',
        'access-control-expose-headers':
          'Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset',
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
    const { app } = setup(undefined, { corsOrigins: [PAGE, 'http://localhost:5173'] })
    const res = await app.request('/api/v1/ingest_events', preflight(PAGE))
    expect(res.status).toBe(204)
    expect(res.headers.get('access-control-allow-origin')).toBe(PAGE)
    expect(res.headers.get('vary')).toBe('Origin')
    const sent = await app.request('/api/v1/ingest_events', post('{}', { Origin: PAGE }))
    expect(sent.headers.get('access-control-allow-origin')).toBe(PAGE)
    expect(sent.headers.get('vary')).toBe('Origin')
  })

  it('gives a disallowed origin the same answers without any CORS header', async () => {
    const { app, calls } = setup(undefined, { corsOrigins: [PAGE] })
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
