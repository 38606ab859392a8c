import { describe, expect, it } from 'vitest'
import { post, setup } from '../test/support/fake-engine'

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
