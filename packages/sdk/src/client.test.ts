import { describe, expect, it, vi } from 'vitest'
import { uniqueBase, useMsw } from '../test/msw'
import { createClient } from './client'

const { serve } = useMsw()
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
const AT = '2026-11-22T10:00:00.000Z'
const key = () => `tis_${Math.random().toString(16).slice(2)}`

function setup(extra: Partial<Parameters<typeof createClient>[0]> = {}) {
  const baseUrl = uniqueBase()
  const seen = serve(baseUrl)
  const apiKey = key()
  const client = createClient({
    baseUrl,
    apiKey,
    environment: 'test',
    release: '1.2.3',
    autoFlush: false,
    // The process session has its own tests (session.test.ts).
    sessions: false,
    ...extra,
  })
  return { client, seen, apiKey }
}

describe('payloads (sections 2.1–2.4)', () => {
  it('captureMessage sends a log with its level to ingest_events', async () => {
    const { client, seen, apiKey } = setup()
    const id = client.captureMessage('cache warmed', {
      level: 'warn',
      timestamp: AT,
      traceId: 'trace-1',
      requestId: 'req-1',
      sessionId: 'sess-1',
      userId: 42,
      tags: { region: 'eu', shard: 3 },
      context: { service: 'api' },
    })
    expect(id).toMatch(UUID)
    expect(await client.flush()).toEqual({ sent: 1, duplicates: 0, dropped: {}, pending: 0 })
    expect(seen[0]!.path).toBe('/api/v1/ingest_events')
    expect(seen[0]!.headers.get('authorization')).toBe(`Bearer ${apiKey}`)
    expect(seen[0]!.headers.get('content-type')).toBe('application/json')
    expect(seen[0]!.body).toEqual({
      event: {
        event_id: id,
        event_type: 'log',
        message: 'cache warmed',
        level: 'warn',
        occurred_at: AT,
        environment: 'test',
        release: '1.2.3',
        trace_id: 'trace-1',
        request_id: 'req-1',
        session_id: 'sess-1',
        user_id: 42,
        context: { service: 'api', tags: { region: 'eu', shard: '3' } },
      },
    })
  })

  it('captureMessage defaults to level info and merges default context and tags', async () => {
    const { client, seen } = setup({ context: { service: 'web' }, tags: { team: 'core' } })
    client.captureMessage('hello', { tags: { extra: 'x' } })
    await client.flush()
    expect(seen[0]!.body.event).toMatchObject({
      level: 'info',
      context: { service: 'web', tags: { team: 'core', extra: 'x' } },
    })
    expect(Date.parse(seen[0]!.body.event.occurred_at)).not.toBeNaN()
  })

  it('captureException sends an error with the exception, its class and the fingerprint', async () => {
    const { client, seen } = setup()
    const error = new TypeError('bad input', { cause: new Error('root cause') })
    const id = client.captureException(error, { fingerprint: 'checkout-bad-input', timestamp: AT })
    await client.flush()
    const event = seen[0]!.body.event
    expect(event).toMatchObject({
      event_id: id,
      event_type: 'error',
      message: 'bad input',
      level: 'error',
      fingerprint: 'checkout-bad-input',
      occurred_at: AT,
    })
    expect(event.context.exception).toMatchObject({
      class: 'TypeError',
      exception_class: 'TypeError',
      message: 'bad input',
      cause: { class: 'Error', message: 'root cause' },
    })
    expect(event.context.exception.frames[0]).toMatchObject({
      filename: expect.stringContaining('client.test.ts'),
      lineno: expect.any(Number),
      colno: expect.any(Number),
    })
  })

  it('captureException accepts thrown non-errors', async () => {
    const { client, seen } = setup()
    client.captureException('plain string')
    await client.flush()
    expect(seen[0]!.body.event).toMatchObject({
      message: 'plain string',
      context: { exception: { class: 'NonError', message: 'plain string', frames: [] } },
    })
  })

  it('captureMetric sends a metric with context.value and unit', async () => {
    const { client, seen } = setup()
    const id = client.captureMetric('db.query', 12.5, {
      unit: 'ms',
      tags: { query: 'users' },
      timestamp: AT,
    })
    await client.flush()
    expect(seen[0]!.body).toEqual({
      event: {
        event_id: id,
        event_type: 'metric',
        message: 'db.query',
        occurred_at: AT,
        environment: 'test',
        release: '1.2.3',
        context: { value: 12.5, unit: 'ms', tags: { query: 'users' } },
      },
    })
  })

  it('captureTransaction sends transaction_name and duration_ms', async () => {
    const { client, seen } = setup()
    const id = client.captureTransaction('GET /users', 87, { status: 200, timestamp: AT })
    await client.flush()
    expect(seen[0]!.body).toEqual({
      event: {
        event_id: id,
        event_type: 'transaction',
        message: 'GET /users',
        transaction_name: 'GET /users',
        duration_ms: 87,
        status: 200,
        occurred_at: AT,
        environment: 'test',
        release: '1.2.3',
        context: { tags: {} },
      },
    })
  })

  it('captureSpan sends W3C ids, parent, kind and times', async () => {
    const { client, seen } = setup()
    client.captureSpan('SELECT users', 30, {
      traceId: 'a'.repeat(32),
      parentSpanId: 'b'.repeat(16),
      kind: 'db',
      startedAt: AT,
    })
    client.captureSpan('root', 5)
    await client.flush()
    expect(seen[0]!.body.event).toMatchObject({
      event_type: 'span',
      name: 'SELECT users',
      trace_id: 'a'.repeat(32),
      parent_span_id: 'b'.repeat(16),
      kind: 'db',
      started_at: AT,
      ended_at: '2026-11-22T10:00:00.030Z',
      duration_ms: 30,
    })
    expect(seen[0]!.body.event.span_id).toMatch(/^[0-9a-f]{16}$/)
    const root = seen[1]!.body.event
    expect(root.trace_id).toMatch(/^[0-9a-f]{32}$/)
    expect(root).toMatchObject({ kind: 'internal' })
    expect(root).not.toHaveProperty('parent_span_id')
    expect(Date.parse(root.ended_at) - Date.parse(root.started_at)).toBe(5)
  })

  it('checkIn posts a check_in envelope to /api/v1/check_ins', async () => {
    const { client, seen } = setup()
    const id = client.checkIn('nightly-report', 'ok', {
      expectedIntervalSeconds: 86400,
      durationMs: 1500,
      traceId: 't',
      timestamp: AT,
    })
    await client.flush()
    expect(seen[0]!.path).toBe('/api/v1/check_ins')
    expect(seen[0]!.body).toEqual({
      check_in: {
        event_id: id,
        slug: 'nightly-report',
        status: 'ok',
        occurred_at: AT,
        environment: 'test',
        release: '1.2.3',
        expected_interval_seconds: 86400,
        duration_ms: 1500,
        trace_id: 't',
      },
    })
  })

  it('recordDeployment posts a deployment envelope in snake_case', async () => {
    const { client, seen } = setup()
    const id = client.recordDeployment({
      release: '1.2.3',
      repository: 'tis-dev/tis',
      commitSha: 'abcdef1',
      branch: 'main',
      deployedAt: AT,
      pullRequestNumber: 12,
      releaseUrl: 'https://example.com/r',
    })
    await client.flush()
    expect(seen[0]!.path).toBe('/api/v1/deployments')
    expect(seen[0]!.body).toEqual({
      deployment: {
        event_id: id,
        release: '1.2.3',
        environment: 'test',
        repository: 'tis-dev/tis',
        commit_sha: 'abcdef1',
        branch: 'main',
        deployed_at: AT,
        pull_request_number: 12,
        release_url: 'https://example.com/r',
      },
    })
  })
})

describe('withMonitor', () => {
  it('reports ok with the duration and returns the result', async () => {
    const { client, seen } = setup()
    expect(await client.withMonitor('job-ok', async () => 7)).toBe(7)
    expect(client.withMonitor('job-sync', () => 'x')).toBe('x')
    await client.flush()
    expect(seen.map((s) => [s.body.check_in.slug, s.body.check_in.status])).toEqual([
      ['job-ok', 'ok'],
      ['job-sync', 'ok'],
    ])
    expect(seen[0]!.body.check_in.duration_ms).toBeGreaterThanOrEqual(0)
  })

  it('reports error and rethrows the job error', async () => {
    const { client, seen } = setup()
    await expect(
      client.withMonitor('job-async-fail', async () => {
        throw new Error('boom')
      }),
    ).rejects.toThrow('boom')
    expect(() =>
      client.withMonitor('job-sync-fail', () => {
        throw new Error('bang')
      }),
    ).toThrow('bang')
    await client.flush()
    expect(seen.map((s) => s.body.check_in.status)).toEqual(['error', 'error'])
  })
})

describe('policy', () => {
  it('beforeSend edits or drops events, and a throwing beforeSend drops', async () => {
    let calls = 0
    const { client, seen } = setup({
      beforeSend(event) {
        calls++
        if (event['message'] === 'secret') return null
        if (event['message'] === 'throw') throw new Error('oops')
        return { ...event, message: `edited ${String(event['message'])}` }
      },
    })
    client.captureMessage('public')
    client.captureMessage('secret')
    client.captureMessage('throw')
    expect(await client.flush()).toEqual({
      sent: 1,
      duplicates: 0,
      dropped: { before_send: 2 },
      pending: 0,
    })
    expect(calls).toBe(3)
    expect(seen.map((s) => s.body.event.message)).toEqual(['edited public'])
  })

  it('sampleRate keeps a share of events and never samples check-ins', async () => {
    const random = vi.spyOn(Math, 'random')
    const { client, seen } = setup({ sampleRate: 0.5 })
    random.mockReturnValueOnce(0.7)
    client.captureMessage('dropped')
    random.mockReturnValueOnce(0.2)
    client.captureMessage('kept')
    client.checkIn('always', 'ok')
    random.mockRestore()
    expect(await client.flush()).toEqual({
      sent: 2,
      duplicates: 0,
      dropped: { sampled: 1 },
      pending: 0,
    })
    expect(seen.map((s) => s.body.event?.message ?? s.body.check_in.slug)).toEqual([
      'kept',
      'always',
    ])
  })

  it('enabled: false sends nothing but still returns ids', async () => {
    const { client, seen } = setup({ enabled: false })
    expect(client.captureMessage('nothing')).toMatch(UUID)
    expect(await client.flush()).toEqual({
      sent: 0,
      duplicates: 0,
      dropped: { disabled: 1 },
      pending: 0,
    })
    expect(seen).toHaveLength(0)
  })

  it('missing credentials disable the client and report once through debug', async () => {
    const debug = vi.fn()
    const client = createClient({ baseUrl: uniqueBase(), debug })
    expect(client.captureMessage('x')).toMatch(UUID)
    expect(debug).toHaveBeenCalledWith(expect.stringContaining('disabled'), undefined)
    expect(await client.flush()).toMatchObject({ sent: 0, dropped: { disabled: 1 } })
  })

  it('never throws for hostile input, including a throwing debug logger', async () => {
    const { client, seen } = setup({
      debug: () => {
        throw new Error('logger broke')
      },
    })
    const hostile: Record<string, unknown> = { big: 10n }
    hostile['self'] = hostile
    Object.defineProperty(hostile, 'trap', {
      enumerable: true,
      get() {
        throw new Error('getter')
      },
    })
    expect(() => client.captureMessage('hostile', { context: { hostile } })).not.toThrow()
    expect(() => client.captureException(hostile)).not.toThrow()
    expect(() => client.captureMetric('m', Number.NaN, { tags: hostile })).not.toThrow()
    await client.flush()
    expect(seen[0]!.body.event.context.hostile).toEqual({
      big: '10',
      self: '[Circular]',
      trap: '[Throws]',
    })
  })

  it('sends a span whose duration is not a number without its times, never throwing', async () => {
    const { client, seen } = setup()
    expect(() => client.captureSpan('odd', Number.NaN)).not.toThrow()
    await client.flush()
    expect(seen[0]!.body.event).toMatchObject({ event_type: 'span', name: 'odd' })
    expect(seen[0]!.body.event.started_at).toBeUndefined()
    expect(seen[0]!.body.event.ended_at).toBeUndefined()
  })

  it('survives being called without options, and tags whose getters throw', async () => {
    const client = createClient(undefined as never)
    expect(client.captureMessage('x')).toMatch(UUID)
    const { client: tagged, seen } = setup()
    const tags = Object.defineProperty({ ok: 'yes' }, 'bad', {
      enumerable: true,
      get() {
        throw new Error('tag getter')
      },
    })
    tagged.captureMessage('tagged', { tags })
    await tagged.flush()
    expect(seen[0]!.body.event.context.tags).toEqual({ ok: 'yes' })
  })

  it('uses a tokenProvider: bearer token, refreshed once after a 401', async () => {
    const baseUrl = uniqueBase()
    const seen = serve(baseUrl, [401, 201])
    let n = 0
    const client = createClient({
      baseUrl,
      autoFlush: false,
      tokenProvider: async () => ({ token: `mobile-${++n}`, expires_at: '2999-01-01T00:00:00Z' }),
    })
    client.captureMessage('from the app')
    expect(await client.flush()).toEqual({ sent: 1, duplicates: 0, dropped: {}, pending: 0 })
    expect(seen.map((s) => s.headers.get('authorization'))).toEqual([
      'Bearer mobile-1',
      'Bearer mobile-2',
    ])
  })

  it('contains a custom transport that rejects, throws or fails to flush', async () => {
    const debug = vi.fn()
    const unhandled = vi.fn()
    process.on('unhandledRejection', unhandled)
    try {
      let calls = 0
      const client = createClient({
        baseUrl: uniqueBase(),
        apiKey: key(),
        autoFlush: false,
        debug,
        transport: {
          send: () => {
            calls++
            if (calls === 1) return Promise.reject(new Error('rejected'))
            throw new Error('thrown')
          },
          flush: () => Promise.reject(new Error('flush failed')),
        },
      })
      expect(client.captureMessage('one')).toMatch(UUID)
      expect(client.captureMessage('two')).toMatch(UUID)
      expect(await client.flush()).toEqual({
        sent: 0,
        duplicates: 0,
        dropped: { internal_error: 1 },
        pending: 0,
      })
      await new Promise((resolve) => setTimeout(resolve, 10))
      expect(unhandled).not.toHaveBeenCalled()
      expect(debug).toHaveBeenCalledWith('transport rejected', expect.any(Error))
      expect(debug).toHaveBeenCalledWith('flush failed', expect.any(Error))
    } finally {
      process.off('unhandledRejection', unhandled)
    }
  })

  it('close() flushes, then turns captures into no-ops', async () => {
    const { client, seen } = setup()
    client.captureMessage('last words')
    expect(await client.close()).toMatchObject({ sent: 1 })
    client.captureMessage('after close')
    expect(await client.flush()).toMatchObject({ sent: 0, dropped: { disabled: 1 } })
    expect(seen).toHaveLength(1)
  })

  it('keeps the SDK-built exception whole while user context gets the configured depth', async () => {
    const { client, seen } = setup({ normalize: { maxDepth: 2 } })
    let error: unknown = new Error('level 0')
    for (let i = 1; i <= 4; i++) error = new Error(`level ${i}`, { cause: error })
    client.captureException(error, { context: { user: { a: { b: { c: 1 } } } } })
    await client.flush()
    const { context } = seen[0]!.body.event
    expect(context.user).toEqual({ a: '[Object]' })
    expect(context.exception.cause.cause.cause.cause).toMatchObject({ message: 'level 0' })
    expect(context.exception.cause.cause.cause.cause.frames.length).toBeGreaterThan(0)
  })

  it('flushes urgently on pagehide in a browser, and close() removes the listener', async () => {
    const listeners = new Map<string, () => void>()
    vi.stubGlobal('document', {})
    vi.stubGlobal('addEventListener', (type: string, fn: () => void) => listeners.set(type, fn))
    vi.stubGlobal('removeEventListener', (type: string) => listeners.delete(type))
    try {
      const baseUrl = uniqueBase()
      const seen = serve(baseUrl)
      const client = createClient({
        baseUrl,
        apiKey: key(),
        transportOptions: { concurrency: 1 },
      })
      expect(listeners.has('pagehide')).toBe(true)
      client.captureMessage('a')
      client.captureMessage('b')
      client.captureMessage('c')
      listeners.get('pagehide')!()
      await vi.waitFor(() => expect(seen).toHaveLength(3))
      await client.close()
      expect(listeners.has('pagehide')).toBe(false)
    } finally {
      vi.unstubAllGlobals()
    }
  })

  it('sets up integrations and removes them on close', async () => {
    const uninstall = vi.fn()
    const setupFn = vi.fn(() => uninstall)
    const { client } = setup({ integrations: [{ name: 'probe', setup: setupFn }] })
    expect(setupFn).toHaveBeenCalledWith(client)
    await client.close()
    expect(uninstall).toHaveBeenCalledOnce()
  })
})

describe('setScope', () => {
  it('merges the scope under each event capture; explicit options win', async () => {
    const { client, seen } = setup()
    client.setScope(() => ({ traceId: 'a'.repeat(32), requestId: 'req-scope', release: '9.9.9' }))
    client.captureMessage('in scope')
    client.captureException(new Error('boom'), { requestId: 'req-explicit' })
    client.captureMetric('m', 1)
    client.captureTransaction('GET /x', 5, { status: 200 })
    await client.flush()
    const events = seen.map((s) => s.body.event)
    expect(events.map((e) => [e.trace_id, e.request_id, e.release])).toEqual([
      ['a'.repeat(32), 'req-scope', '9.9.9'],
      ['a'.repeat(32), 'req-explicit', '9.9.9'],
      ['a'.repeat(32), 'req-scope', '9.9.9'],
      ['a'.repeat(32), 'req-scope', '9.9.9'],
    ])
  })

  it('makes spans without their own parent children of the scope parent', async () => {
    const { client, seen } = setup()
    const traceId = 'b'.repeat(32)
    client.setScope(() => ({ traceId, parentSpanId: 'c'.repeat(16) }))
    client.captureSpan('SELECT 1', 3, { kind: 'db' })
    client.captureSpan('GET upstream', 4, { kind: 'http', parentSpanId: 'd'.repeat(16) })
    // a span placed in another trace takes no parent from this one
    client.captureSpan('other trace', 1, { traceId: 'e'.repeat(32) })
    await client.flush()
    expect(seen.map((s) => [s.body.event.trace_id, s.body.event.parent_span_id])).toEqual([
      [traceId, 'c'.repeat(16)],
      [traceId, 'd'.repeat(16)],
      ['e'.repeat(32), undefined],
    ])
  })

  it('leaves check-ins alone, and removing the provider ends the scope', async () => {
    const { client, seen } = setup()
    client.setScope(() => ({ requestId: 'req-gone' }))
    client.checkIn('job', 'ok')
    client.setScope(undefined)
    client.captureMessage('after')
    client.setScope(() => undefined)
    client.captureMessage('empty scope')
    await client.flush()
    expect(seen.map((s) => (s.body.check_in ?? s.body.event).request_id)).toEqual([
      undefined,
      undefined,
      undefined,
    ])
  })

  it('a provider that throws costs only its defaults', async () => {
    const debug = vi.fn()
    const { client, seen } = setup({ debug })
    client.setScope(() => {
      throw new Error('scope broke')
    })
    const id = client.captureMessage('still sent', { requestId: 'req-own' })
    client.captureSpan('span', 1)
    await client.flush()
    expect(seen.map((s) => s.body.event.event_id)).toContain(id)
    expect(seen[0]!.body.event.request_id).toBe('req-own')
    expect(seen).toHaveLength(2)
    expect(debug).toHaveBeenCalledWith(expect.stringContaining('scope failed'), expect.any(Error))
  })
})
