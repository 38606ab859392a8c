import { delay, HttpResponse } from 'msw'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { uniqueBase, useMsw } from '../test/msw'
import { createCredentialSource } from './credentials'
import { makeFetchTransport } from './fetch-transport'
import { createTransport, type TransportOptions } from './transport'
import type { TransportRequest } from './transport-types'

const { serve } = useMsw()
const body = (n: number | string) => JSON.stringify({ event: { message: `m${n}` } })
const ev = (n: number | string): TransportRequest => ({ endpoint: 'ingest_events', body: body(n) })

function fetchTransport(options: TransportOptions & { apiKey?: string } = {}) {
  const baseUrl = uniqueBase()
  const logger = vi.fn()
  const transport = makeFetchTransport({
    baseUrl,
    credentials: createCredentialSource(options.apiKey ?? 'tis_key', undefined),
    logger,
    ...options,
  })
  return { baseUrl, transport, logger }
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
  // Jitter at its ceiling, so backoff delays are predictable.
  vi.spyOn(Math, 'random').mockReturnValue(0.999)
})
afterEach(() => {
  vi.useRealTimers()
  vi.restoreAllMocks()
})

describe('fetch transport', () => {
  it('sends and counts a success', async () => {
    const { baseUrl, transport } = fetchTransport()
    const seen = serve(baseUrl)
    expect(await transport.send(ev(1))).toEqual({ status: 'sent', statusCode: 201 })
    expect(seen[0]!.body).toEqual({ event: { message: 'm1' } })
    expect(await transport.flush(100)).toEqual({ sent: 1, duplicates: 0, dropped: {}, pending: 0 })
  })

  it('retries a network error with backoff, then drops it as network_error', async () => {
    const { baseUrl, transport } = fetchTransport({ maxRetries: 2, backoffMs: 1000 })
    const seen = serve(baseUrl, [() => HttpResponse.error()])
    const result = transport.send(ev(1))
    await vi.advanceTimersByTimeAsync(0)
    expect(seen).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(999)
    expect(seen).toHaveLength(2)
    await vi.advanceTimersByTimeAsync(1999)
    expect(seen).toHaveLength(3)
    expect(await result).toEqual({ status: 'dropped', reason: 'network_error' })
    expect(await transport.flush(0)).toEqual({
      sent: 0,
      duplicates: 0,
      dropped: { network_error: 1 },
      pending: 0,
    })
  })

  it('retries a 500 and succeeds on the next attempt', async () => {
    const { baseUrl, transport } = fetchTransport()
    const seen = serve(baseUrl, [500, 201])
    const result = transport.send(ev(1))
    await vi.advanceTimersByTimeAsync(1000)
    expect(await result).toEqual({ status: 'sent', statusCode: 201 })
    expect(seen).toHaveLength(2)
    expect(seen[1]!.body).toEqual(seen[0]!.body)
  })

  it('gives up on persistent 5xx as server_error', async () => {
    const { baseUrl, transport } = fetchTransport({ maxRetries: 1 })
    serve(baseUrl, [503])
    const result = transport.send(ev(1))
    await vi.advanceTimersByTimeAsync(2000)
    expect(await result).toEqual({ status: 'dropped', reason: 'server_error' })
  })

  it('honours Retry-After on 429 for that endpoint only, then sends what waited', async () => {
    const { baseUrl, transport } = fetchTransport({ concurrency: 1 })
    const limited = () =>
      HttpResponse.json(
        { error: 'Rate limit exceeded', retry_after: 5 },
        {
          status: 429,
          headers: { 'Retry-After': '5' },
        },
      )
    const seen = serve(baseUrl, [limited, 201])
    const first = transport.send(ev(1))
    await vi.advanceTimersByTimeAsync(0)
    transport.send(ev(2))
    const checkIn = transport.send({ endpoint: 'check_ins', body: '{"check_in":{"slug":"s"}}' })
    await vi.advanceTimersByTimeAsync(100)
    // the check-in endpoint is not blocked; ingest_events is, for five seconds
    expect(seen.map((s) => s.path)).toEqual(['/api/v1/ingest_events', '/api/v1/check_ins'])
    expect(await checkIn).toMatchObject({ status: 'sent' })
    await vi.advanceTimersByTimeAsync(4800)
    expect(seen).toHaveLength(2)
    await vi.advanceTimersByTimeAsync(200)
    expect(await first).toMatchObject({ status: 'sent' })
    expect(seen.map((s) => s.body.event?.message)).toEqual(['m1', undefined, 'm1', 'm2'])
    expect(await transport.flush(1000)).toEqual({ sent: 3, duplicates: 0, dropped: {}, pending: 0 })
  })

  it('a shorter pause on one endpoint is not held up by a longer one on another', async () => {
    const { baseUrl, transport } = fetchTransport()
    const pause = (seconds: string) => () =>
      HttpResponse.json({}, { status: 429, headers: { 'Retry-After': seconds } })
    const seen = serve(baseUrl, [pause('50'), pause('2'), 201])
    const event = transport.send(ev(1))
    await vi.advanceTimersByTimeAsync(10)
    const checkIn = transport.send({ endpoint: 'check_ins', body: '{"check_in":{"slug":"s"}}' })
    await vi.advanceTimersByTimeAsync(2100)
    expect(await checkIn).toMatchObject({ status: 'sent' })
    expect(seen).toHaveLength(3)
    await vi.advanceTimersByTimeAsync(48_000)
    expect(await event).toMatchObject({ status: 'sent' })
  })

  it('drops and counts records when Retry-After exceeds the longest wait', async () => {
    const { baseUrl, transport, logger } = fetchTransport({ maxRateLimitWaitMs: 10_000 })
    const seen = serve(baseUrl, [
      () => HttpResponse.json({}, { status: 429, headers: { 'Retry-After': '3600' } }),
    ])
    expect(await transport.send(ev(1))).toEqual({
      status: 'dropped',
      reason: 'rate_limited',
      statusCode: 429,
    })
    expect(await transport.send(ev(2))).toEqual({ status: 'dropped', reason: 'rate_limited' })
    expect(seen).toHaveLength(1)
    expect(logger).toHaveBeenCalledWith(expect.stringContaining('rate limited'))
    expect(await transport.flush(0)).toMatchObject({ dropped: { rate_limited: 2 } })
  })

  it.each([400, 401, 403, 422])('does not retry a %i and reports it once', async (status) => {
    const { baseUrl, transport, logger } = fetchTransport()
    const seen = serve(baseUrl, [status])
    expect(await transport.send(ev(1))).toEqual({
      status: 'dropped',
      reason: 'rejected',
      statusCode: status,
    })
    expect(await transport.send(ev(2))).toMatchObject({ reason: 'rejected' })
    await vi.advanceTimersByTimeAsync(60_000)
    expect(seen).toHaveLength(2)
    const reports = logger.mock.calls.filter(([m]) => String(m).includes(`answered ${status}`))
    expect(reports).toHaveLength(1)
  })

  it('times an attempt out and retries it', async () => {
    const { baseUrl, transport } = fetchTransport({ timeoutMs: 2000, maxRetries: 1 })
    let calls = 0
    serve(baseUrl, [
      async () => {
        calls++
        if (calls === 1) await delay('infinite')
        return HttpResponse.json({}, { status: 201 })
      },
    ])
    const result = transport.send(ev(1))
    await vi.advanceTimersByTimeAsync(1999)
    expect(calls).toBe(1)
    await vi.advanceTimersByTimeAsync(1 + 1000)
    expect(await result).toMatchObject({ status: 'sent' })
    expect(calls).toBe(2)
  })

  it('times out an attempt whose request function ignores the abort signal', async () => {
    let calls = 0
    const transport = createTransport({ timeoutMs: 1000, maxRetries: 0 }, () => {
      calls++
      return new Promise(() => {}) // e.g. a token provider that never answers
    })
    const result = transport.send(ev(1))
    await vi.advanceTimersByTimeAsync(1000)
    expect(await result).toEqual({ status: 'dropped', reason: 'network_error' })
    expect(calls).toBe(1)
  })

  it('drops a record that keeps getting 429 after maxRetries waits', async () => {
    const { baseUrl, transport } = fetchTransport({ maxRetries: 2 })
    const seen = serve(baseUrl, [
      () => HttpResponse.json({}, { status: 429, headers: { 'Retry-After': '1' } }),
    ])
    const result = transport.send(ev(1))
    await vi.advanceTimersByTimeAsync(5000)
    expect(await result).toEqual({ status: 'dropped', reason: 'rate_limited', statusCode: 429 })
    expect(seen).toHaveLength(3)
  })

  it('bounds the queue by count and by bytes, counting drops', async () => {
    const { baseUrl, transport } = fetchTransport({ maxQueueSize: 3, concurrency: 1 })
    serve(baseUrl)
    const results = [1, 2, 3, 4, 5].map((n) => transport.send(ev(n)))
    expect(await results[4]).toEqual({ status: 'dropped', reason: 'queue_full' })
    expect(await transport.flush(1000)).toEqual({
      sent: 3,
      duplicates: 0,
      dropped: { queue_full: 2 },
      pending: 0,
    })

    const small = fetchTransport({ maxQueueBytes: 100 })
    serve(small.baseUrl)
    const big = { endpoint: 'ingest_events', body: 'x'.repeat(101) } as const
    expect(await small.transport.send(big)).toEqual({ status: 'dropped', reason: 'queue_full' })
  })

  it('flush reports pending records when its timeout runs out', async () => {
    const { baseUrl, transport } = fetchTransport()
    serve(baseUrl, [500])
    transport.send(ev(1))
    const flushed = transport.flush(100)
    await vi.advanceTimersByTimeAsync(100)
    expect(await flushed).toEqual({ sent: 0, duplicates: 0, dropped: {}, pending: 1 })
    const closed = transport.close!(0)
    await vi.advanceTimersByTimeAsync(0)
    expect(await closed).toMatchObject({ dropped: { closed: 1 } })
    expect(await transport.send(ev(2))).toEqual({ status: 'dropped', reason: 'closed' })
  })
})

describe('queue policy', () => {
  it('keeps at most `concurrency` requests in flight', async () => {
    let inFlight = 0
    let peak = 0
    const transport = createTransport({ concurrency: 2 }, async () => {
      inFlight++
      peak = Math.max(peak, inFlight)
      await new Promise((r) => setTimeout(r, 10))
      inFlight--
      return { status: 201, retryAfter: null }
    })
    for (let i = 0; i < 6; i++) transport.send(ev(i))
    await vi.advanceTimersByTimeAsync(100)
    expect(peak).toBe(2)
    expect(await transport.flush(0)).toEqual({ sent: 6, duplicates: 0, dropped: {}, pending: 0 })
  })

  it('an urgent flush starts every queued record past the concurrency limit, as one batch', async () => {
    const requests: TransportRequest[] = []
    const transport = createTransport({ concurrency: 1 }, async (request) => {
      requests.push(request)
      await new Promise((r) => setTimeout(r, 10))
      return { status: 201, retryAfter: null }
    })
    for (let i = 0; i < 4; i++) transport.send(ev(i))
    expect(requests).toHaveLength(1)
    const flushed = transport.flush(1000, { urgent: true })
    // The three queued events leave together in one batch request.
    expect(requests).toHaveLength(2)
    expect(requests[1]).toMatchObject({ endpoint: 'ingest_events', batch: true })
    expect(requests[1]!.body.split('\n')).toEqual([ev(1).body, ev(2).body, ev(3).body])
    // later records are back under the limit
    transport.send(ev(5))
    expect(requests).toHaveLength(2)
    await vi.advanceTimersByTimeAsync(50)
    expect(await flushed).toMatchObject({ sent: 5, pending: 0 })
  })

  it('falls back to one request per record when the server has no batch endpoint', async () => {
    const requests: TransportRequest[] = []
    const transport = createTransport({ concurrency: 1 }, async (request) => {
      requests.push(request)
      return { status: request.batch ? 404 : 201, retryAfter: null }
    })
    const results = [0, 1, 2].map((i) => transport.send(ev(i)))
    await vi.advanceTimersByTimeAsync(10)
    expect((await Promise.all(results)).map((r) => r.status)).toEqual(['sent', 'sent', 'sent'])
    expect(requests.map((r) => r.batch ?? false)).toEqual([false, true, false, false])
    transport.send(ev(3))
    transport.send(ev(4))
    await vi.advanceTimersByTimeAsync(10)
    expect(requests.slice(4).map((r) => r.batch ?? false)).toEqual([false, false])
  })

  it('counts a throwing request function as a network error, never rejecting', async () => {
    const transport = createTransport({ maxRetries: 0 }, () => {
      throw new Error('sync throw')
    })
    expect(await transport.send(ev(1))).toEqual({ status: 'dropped', reason: 'network_error' })
  })
})

describe('token provider (mobile ingest tokens)', () => {
  it('fetches once, reuses the token, refreshes before expires_at', async () => {
    let n = 0
    const provider = vi.fn(async () => ({
      token: `tok-${++n}`,
      expires_at: new Date(Date.now() + 120_000).toISOString(),
    }))
    const baseUrl = uniqueBase()
    const seen = serve(baseUrl)
    const transport = makeFetchTransport({
      baseUrl,
      credentials: createCredentialSource(undefined, provider, 30_000),
    })
    await Promise.all([transport.send(ev(1)), transport.send(ev(2))])
    expect(provider).toHaveBeenCalledTimes(1)
    vi.setSystemTime(Date.now() + 80_000)
    await transport.send(ev(3))
    expect(provider).toHaveBeenCalledTimes(1)
    vi.setSystemTime(Date.now() + 11_000)
    await transport.send(ev(4))
    expect(provider).toHaveBeenCalledTimes(2)
    expect(seen.map((s) => s.headers.get('authorization'))).toEqual([
      'Bearer tok-1',
      'Bearer tok-1',
      'Bearer tok-1',
      'Bearer tok-2',
    ])
  })

  it('re-fetches the token once on a 401 and retries with it', async () => {
    let n = 0
    const provider = vi.fn(async () => ({
      token: `tok-${++n}`,
      expiresAt: Date.now() + 600_000,
    }))
    const baseUrl = uniqueBase()
    const seen = serve(baseUrl, [401, 201, 401, 401])
    const transport = makeFetchTransport({
      baseUrl,
      credentials: createCredentialSource(undefined, provider),
      refreshOn401: true,
    })
    expect(await transport.send(ev(1))).toMatchObject({ status: 'sent' })
    expect(seen.map((s) => s.headers.get('authorization'))).toEqual([
      'Bearer tok-1',
      'Bearer tok-2',
    ])
    // a second 401 after the refresh is final
    expect(await transport.send(ev(2))).toMatchObject({ reason: 'rejected', statusCode: 401 })
    expect(provider).toHaveBeenCalledTimes(3)
    expect(seen).toHaveLength(4)
  })
})
