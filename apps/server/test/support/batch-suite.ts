import { randomUUID } from 'node:crypto'
import { gzipSync } from 'node:zlib'
import { expect, it } from 'vitest'
import { createClient, freshIp } from './client'
import { ADMIN_TOKEN, type Harness } from './harness'

type Fields = Record<string, unknown>

/**
 * `POST /api/v1/ingest_events/batch` end to end: NDJSON (optionally gzip), per-line results in
 * order, duplicates, rejections, the caps and the rate limit counting each envelope.
 */
export function describeBatchIngest(harness: () => Harness) {
  async function setup() {
    const c = createClient(harness().url)
    const { projectId, key } = await c.projectWithKey()
    /** Posts raw bytes; NDJSON by default. */
    async function post(body: Uint8Array | string, headers: Record<string, string> = {}) {
      const response = await fetch(`${harness().url}/api/v1/ingest_events/batch`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${key}`,
          'Content-Type': 'application/x-ndjson',
          'X-Forwarded-For': freshIp(),
          ...headers,
        },
        body,
      })
      const text = await response.text()
      return { status: response.status, headers: response.headers, body: JSON.parse(text) }
    }
    const ndjson = (events: Fields[]) => events.map((event) => JSON.stringify({ event })).join('\n')
    const get = (path: string) =>
      c.api('GET', `/api/v1/projects/${projectId}${path}`, { token: ADMIN_TOKEN })
    return { post, ndjson, get }
  }
  const log = (message: string, extra: Fields = {}) => ({
    event_type: 'log',
    message,
    event_id: randomUUID(),
    ...extra,
  })

  it('answers each line in order: accepted, duplicate, rejected; writes only the valid new ones', async () => {
    const s = await setup()
    const first = log('one')
    const error = { event_type: 'error', message: 'Batch boom', event_id: randomUUID() }
    const span = {
      event_type: 'span',
      name: 'GET /x',
      event_id: randomUUID(),
      trace_id: 'f'.repeat(32),
      span_id: '1'.repeat(16),
    }
    const body = [
      JSON.stringify({ event: first }),
      '{not json',
      JSON.stringify({ event: { event_type: 'log', message: 'no id' } }),
      JSON.stringify({ event: { event_type: 'nope', message: 'x', event_id: randomUUID() } }),
      JSON.stringify({ event: error }),
      JSON.stringify({ event: { ...first, message: 'repeat' } }),
      '',
      JSON.stringify({ event: span }),
    ].join('\r\n')
    const r = await s.post(`${body}\n`)
    expect(r.status).toBe(200)
    expect(r.headers.get('x-ratelimit-limit')).not.toBeNull()
    expect(r.body).toMatchObject({ accepted: 3, duplicates: 1, rejected: 3, rate_limited: 0 })
    const [a, b, c, d, e, f, g] = r.body.results
    expect(a).toMatchObject({ index: 0, status: 201, id: first.event_id })
    expect(b).toEqual({
      index: 1,
      status: 400,
      error: 'param is missing or the value is empty: event (line 2 is not valid JSON)',
    })
    expect(c).toEqual({ index: 2, status: 422, errors: ['event_id is required in a batch'] })
    expect(d).toMatchObject({ index: 3, status: 422 })
    expect(d.errors[0]).toMatch(/^event_type is not included in the list/)
    expect(e).toMatchObject({ index: 4, status: 201, id: error.event_id })
    expect(f).toEqual({ ...a, index: 5, status: 200, duplicate: true })
    expect(g).toMatchObject({ index: 6, status: 201, id: span.event_id, type: 'span' })
    const events = await s.get('/events')
    expect(events.body.events.map((x: Fields) => x['message']).sort()).toEqual([
      'Batch boom',
      'one',
    ])
    // Posting the same batch again stores nothing new.
    const again = await s.post(body)
    expect(again.body).toMatchObject({ accepted: 0, duplicates: 4, rejected: 3 })
    const issues = await s.get('/issues')
    expect(issues.body.issues).toEqual([expect.objectContaining({ title: 'Batch boom', count: 1 })])
  })

  it('accepts a gzip body and caps it once decompressed', async () => {
    const s = await setup()
    const events = [log('zipped 1'), log('zipped 2')]
    const r = await s.post(gzipSync(s.ndjson(events)), { 'Content-Encoding': 'gzip' })
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({ accepted: 2, rejected: 0 })
    // A small gzip that inflates past the cap (the suite's SERVICE_MAX_BODY_BYTES, 64 KiB).
    const bomb = gzipSync(s.ndjson([log('x'.repeat(40_000)), log('y'.repeat(40_000))]))
    expect(bomb.byteLength).toBeLessThan(65_536)
    const big = await s.post(bomb, { 'Content-Encoding': 'gzip' })
    expect(big.status).toBe(413)
    expect(big.body).toEqual({ error: 'batch is too large (maximum is 65536 bytes uncompressed)' })
    const broken = await s.post('not gzip', { 'Content-Encoding': 'gzip' })
    expect(broken).toMatchObject({ status: 400, body: { error: 'the body is not valid gzip' } })
    const brotli = await s.post(s.ndjson(events), { 'Content-Encoding': 'br' })
    expect(brotli.status).toBe(415)
  })

  it('refuses a wrong content type, an empty batch and more than 100 envelopes', async () => {
    const s = await setup()
    const json = await s.post(JSON.stringify({ event: log('x') }), {
      'Content-Type': 'application/json',
    })
    expect(json.status).toBe(415)
    expect(json.body.error).toMatch(/^Content-Type must be application\/x-ndjson/)
    const empty = await s.post('\n\n')
    expect(empty).toMatchObject({ status: 422 })
    const many = await s.post(s.ndjson(Array.from({ length: 101 }, (_, i) => log(`m${i}`))))
    expect(many.status).toBe(422)
    expect(many.body.errors).toEqual(['batch has 101 envelopes (maximum is 100)'])
    expect((await s.get('/events')).body.events).toEqual([])
  })

  it('counts every envelope against the rate limit', async () => {
    const s = await setup()
    // The suite allows 25 requests per key per hour on ingest_events.
    const twenty = await s.post(s.ndjson(Array.from({ length: 20 }, (_, i) => log(`r${i}`))))
    expect(twenty.status).toBe(200)
    expect(twenty.headers.get('x-ratelimit-remaining')).toBe('5')
    // Five of the next ten fit: they are stored, the other five answered 429 line by line.
    const ten = await s.post(s.ndjson(Array.from({ length: 10 }, (_, i) => log(`s${i}`))))
    expect(ten.status).toBe(200)
    expect(ten.body).toMatchObject({ accepted: 5, rate_limited: 5, rejected: 0 })
    expect(ten.body.results.map((r: Fields) => r['status'])).toEqual([
      ...Array(5).fill(201),
      ...Array(5).fill(429),
    ])
    expect(ten.body.results[9].error).toMatch(/^Rate limit exceeded: retry after \d+ seconds$/)
    expect(ten.headers.get('retry-after')).not.toBeNull()
    // Nothing fits any more: the whole request is a 429.
    const one = await s.post(s.ndjson([log('late')]))
    expect(one.status).toBe(429)
    expect((await s.get('/events?limit=200')).body.events).toHaveLength(25)
  })

  it('answers 401 without a valid key', async () => {
    const r = await fetch(`${harness().url}/api/v1/ingest_events/batch`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-ndjson', 'X-Forwarded-For': freshIp() },
      body: JSON.stringify({ event: log('x') }),
    })
    expect(r.status).toBe(401)
  })
}
