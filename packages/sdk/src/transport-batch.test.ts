import { HttpResponse } from 'msw'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { uniqueBase, useMsw } from '../test/msw'
import { createCredentialSource } from './credentials'
import { makeFetchTransport } from './fetch-transport'
import type { TransportRequest } from './transport-types'

const { serve } = useMsw()
const ev = (n: number): TransportRequest => ({
  endpoint: 'ingest_events',
  body: JSON.stringify({ event: { message: `m${n}` } }),
})

/** A fetch transport sending one request at a time, so that queued records leave as a batch. */
function setup() {
  const baseUrl = uniqueBase()
  const logger = vi.fn()
  const transport = makeFetchTransport({
    baseUrl,
    credentials: createCredentialSource('tis_key', undefined),
    logger,
    concurrency: 1,
  })
  return { baseUrl, transport, logger }
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
  vi.spyOn(Math, 'random').mockReturnValue(0.999)
})
afterEach(() => {
  vi.useRealTimers()
  vi.restoreAllMocks()
})

// `m0` goes alone; m1…m3, queued behind it, leave together as one batch request.
describe('batches, answered all or nothing (202, 422, 429, 413)', () => {
  it('202: every record is sent; duplicates are counted as sent and as duplicates', async () => {
    const { baseUrl, transport } = setup()
    const seen = serve(baseUrl, [201, 201, 200, 201])
    const results = [0, 1, 2, 3].map((n) => transport.send(ev(n)))
    await vi.advanceTimersByTimeAsync(10)
    expect(await Promise.all(results)).toEqual([
      { status: 'sent', statusCode: 201 },
      { status: 'sent', statusCode: 202 },
      { status: 'sent', statusCode: 202, duplicate: true },
      { status: 'sent', statusCode: 202 },
    ])
    expect(seen.map((s) => s.headers.get('content-type'))).toEqual([
      'application/json',
      ...Array(3).fill('application/x-ndjson'),
    ])
    expect(await transport.flush(0)).toEqual({ sent: 4, duplicates: 1, dropped: {}, pending: 0 })
  })

  it('a single record answered 200 is a duplicate too', async () => {
    const { baseUrl, transport } = setup()
    serve(baseUrl, [200])
    expect(await transport.send(ev(0))).toEqual({
      status: 'sent',
      statusCode: 200,
      duplicate: true,
    })
    expect(await transport.flush(0)).toMatchObject({ sent: 1, duplicates: 1 })
  })

  it('422: drops and reports the invalid lines, re-sends the rolled-back ones alone, once', async () => {
    const { baseUrl, transport, logger } = setup()
    const seen = serve(baseUrl, [201, 201, 422, 201, 201, 201, 201])
    const results = [0, 1, 2, 3].map((n) => transport.send(ev(n)))
    await vi.advanceTimersByTimeAsync(0)
    const later = transport.send(ev(4))
    await vi.advanceTimersByTimeAsync(10)
    expect((await Promise.all([...results, later])).map((r) => r.status)).toEqual([
      'sent',
      'sent',
      'dropped',
      'sent',
      'sent',
    ])
    expect(await results[2]).toEqual({ status: 'dropped', reason: 'rejected', statusCode: 422 })
    // m1 and m3 went again together, without m2 and without m4, which came after.
    expect(seen.map((s) => s.body.event.message)).toEqual([
      'm0',
      'm1',
      'm2',
      'm3',
      'm1',
      'm3',
      'm4',
    ])
    expect(seen[5]!.headers.get('content-type')).toBe('application/x-ndjson')
    expect(logger).toHaveBeenCalledWith('batch line rejected', ['line 1 is invalid'])
    expect(await transport.flush(0)).toEqual({
      sent: 4,
      duplicates: 0,
      dropped: { rejected: 1 },
      pending: 0,
    })
  })

  it('a record rolled back a second time is dropped: it is re-sent once only', async () => {
    const { baseUrl, transport } = setup()
    const seen = serve(baseUrl, [201, 201, 422, 201, 201, 422])
    const results = [0, 1, 2, 3].map((n) => transport.send(ev(n)))
    await vi.advanceTimersByTimeAsync(10)
    expect((await Promise.all(results)).map((r) => r.status)).toEqual([
      'sent',
      'dropped',
      'dropped',
      'dropped',
    ])
    expect(seen).toHaveLength(6)
    expect(await transport.flush(0)).toMatchObject({ sent: 1, dropped: { rejected: 3 } })
  })

  it('429: the whole batch waits for Retry-After, then goes again with every record', async () => {
    const { baseUrl, transport } = setup()
    const limited = () =>
      HttpResponse.json(
        { error: 'Rate limit exceeded', limit: 25, window_seconds: 60, retry_after: 2 },
        { status: 429, headers: { 'Retry-After': '2' } },
      )
    const seen = serve(baseUrl, [201, limited, 201, 201, 201])
    const results = [0, 1, 2, 3].map((n) => transport.send(ev(n)))
    await vi.advanceTimersByTimeAsync(1900)
    expect(seen).toHaveLength(2)
    await vi.advanceTimersByTimeAsync(200)
    expect((await Promise.all(results)).map((r) => r.status)).toEqual(Array(4).fill('sent'))
    expect(seen.slice(2).map((s) => s.body.event.message)).toEqual(['m1', 'm2', 'm3'])
    expect(await transport.flush(0)).toEqual({ sent: 4, duplicates: 0, dropped: {}, pending: 0 })
  })

  it('413: sends each record of the batch in a request of its own', async () => {
    const { baseUrl, transport } = setup()
    const seen = serve(baseUrl, [201, 413, 201])
    const results = [0, 1, 2, 3].map((n) => transport.send(ev(n)))
    await vi.advanceTimersByTimeAsync(10)
    expect((await Promise.all(results)).map((r) => r.status)).toEqual(Array(4).fill('sent'))
    expect(seen.map((s) => [s.body.event.message, s.headers.get('content-type')])).toEqual([
      ['m0', 'application/json'],
      ['m1', 'application/x-ndjson'],
      ['m1', 'application/json'],
      ['m2', 'application/json'],
      ['m3', 'application/json'],
    ])
  })
})
