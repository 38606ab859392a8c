// Sentry's protocol at the HTTP level, on a real server (PGlite): how each key is read, what
// each bad input is answered, that nothing of a refused envelope is stored, compressed bodies,
// idempotency by event_id, and the 429 Sentry's SDKs obey.
import { gzipSync } from 'node:zlib'
import { ADMIN_TOKEN, createClient, type Harness, startPgliteHarness } from '@tis/test-utils/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

let harness: Harness
beforeAll(async () => {
  harness = await startPgliteHarness()
})
afterAll(() => harness?.close())

/** A fresh project: its id, number, DSN key and a tis API key. */
async function project() {
  const c = createClient(harness.url)
  const { projectId, key } = await c.projectWithKey()
  const got = await c.api('GET', `/api/v1/projects/${projectId}`, { token: ADMIN_TOKEN })
  const { dsn, number } = got.body.project as { dsn: string; number: number }
  const sentryKey = /^http:\/\/([0-9a-f]{32})@/.exec(dsn)![1]!
  return { c, projectId, number, sentryKey, apiKey: key }
}

const auth = (key: string) => `Sentry sentry_version=7, sentry_client=test/1.0, sentry_key=${key}`

/** An envelope of JSON items, each with its `length`. */
function envelope(header: object, items: Array<[object, string]>): string {
  const lines = [JSON.stringify(header)]
  for (const [h, payload] of items) {
    lines.push(JSON.stringify({ ...h, length: Buffer.byteLength(payload) }), payload)
  }
  return lines.join('\n')
}

const hex = (n: number) => n.toString(16).padStart(32, '0')
const errorEvent = (id: string, message = 'boom') =>
  JSON.stringify({ event_id: id, message, level: 'error' })

async function post(path: string, body: string | Uint8Array, headers: Record<string, string> = {}) {
  const r = await fetch(`${harness.url}${path}`, { method: 'POST', headers, body })
  const text = await r.text()
  return { status: r.status, headers: r.headers, body: text === '' ? null : JSON.parse(text) }
}

async function storedEvents(projectId: string) {
  const rows = await harness.query<{ n: number }>(
    'select count(*)::int as n from events where project_id = $1',
    [projectId],
  )
  return rows[0]?.n
}

describe('Sentry protocol', () => {
  it('takes the key from X-Sentry-Auth, the sentry_key query parameter, the envelope dsn, or an API key', async () => {
    const p = await project()
    const path = `/api/${p.number}/envelope/`
    const body = (n: number) =>
      envelope({ event_id: hex(n) }, [[{ type: 'event' }, errorEvent(hex(n))]])
    expect((await post(path, body(1), { 'x-sentry-auth': auth(p.sentryKey) })).body).toEqual({
      id: hex(1),
    })
    expect((await post(`${path}?sentry_version=7&sentry_key=${p.sentryKey}`, body(2))).status).toBe(
      200,
    )
    const tunnel = envelope(
      { event_id: hex(3), dsn: `http://${p.sentryKey}@tis.test/${p.number}` },
      [[{ type: 'event' }, errorEvent(hex(3))]],
    )
    expect((await post(path, tunnel)).status).toBe(200)
    expect((await post(path, body(4), { 'x-sentry-auth': auth(p.apiKey) })).status).toBe(200)
    expect((await post(path, body(11), { authorization: `Bearer ${p.apiKey}` })).status).toBe(200)
    expect((await post(path, body(12), { 'x-api-key': p.apiKey })).status).toBe(200)
    expect(await storedEvents(p.projectId)).toBe(6)
  })

  it('answers 401 without a key or with a wrong one, 403 for another project, 404 for a name', async () => {
    const p = await project()
    const other = await project()
    const body = envelope({}, [[{ type: 'event' }, errorEvent(hex(9))]])
    expect((await post(`/api/${p.number}/envelope/`, body)).status).toBe(401)
    expect(
      (await post(`/api/${p.number}/envelope/`, body, { 'x-sentry-auth': auth('f'.repeat(32)) }))
        .status,
    ).toBe(401)
    const wrong = await post(`/api/${other.number}/envelope/`, body, {
      'x-sentry-auth': auth(p.sentryKey),
    })
    expect(wrong).toMatchObject({
      status: 403,
      body: { error: `this key belongs to project ${p.number}, not ${other.number}` },
    })
    expect(
      (await post('/api/checkout/envelope/', body, { 'x-sentry-auth': auth(p.sentryKey) })).status,
    ).toBe(404)
    expect(await storedEvents(other.projectId)).toBe(0)
  })

  it('refuses a malformed envelope or a stored item that is not JSON with 400, storing nothing of it', async () => {
    const p = await project()
    const headers = { 'x-sentry-auth': auth(p.sentryKey) }
    const path = `/api/${p.number}/envelope/`
    const truncated = `{}\n{"type":"event","length":500}\n${errorEvent(hex(1))}`
    expect(await post(path, truncated, headers)).toMatchObject({
      status: 400,
      body: {
        error: expect.stringMatching(
          /^item 1 \(event\): "length" is 500 bytes but only \d+ remain$/,
        ),
      },
    })
    const halfBad = envelope({}, [
      [{ type: 'event' }, errorEvent(hex(2))],
      [{ type: 'event' }, '[1]'],
    ])
    expect(await post(path, halfBad, headers)).toMatchObject({
      status: 400,
      body: { error: 'item 2 (event): its payload is not a JSON object' },
    })
    expect((await post(path, 'not an envelope', headers)).status).toBe(400)
    expect(await storedEvents(p.projectId)).toBe(0)
  })

  it('accepts item types it does not store (sessions, client reports, unknown) with 200', async () => {
    const p = await project()
    const body = envelope({ sent_at: new Date().toISOString() }, [
      [{ type: 'session' }, '{"sid":"s","status":"ok"}'],
      [{ type: 'client_report' }, '{"discarded_events":[]}'],
      [{ type: 'a_type_from_the_future' }, 'whatever'],
    ])
    const r = await post(`/api/${p.number}/envelope/`, body, { 'x-sentry-auth': auth(p.sentryKey) })
    expect(r).toMatchObject({ status: 200, body: { id: null } })
    expect(await storedEvents(p.projectId)).toBe(0)
  })

  it('inflates gzip bodies, reads the store endpoint, and stores a repeated event_id once', async () => {
    const p = await project()
    const headers = { 'x-sentry-auth': auth(p.sentryKey) }
    const body = envelope({ event_id: hex(5) }, [[{ type: 'event' }, errorEvent(hex(5), 'zipped')]])
    const zipped = await post(`/api/${p.number}/envelope/`, gzipSync(body), {
      ...headers,
      'content-encoding': 'gzip',
    })
    expect(zipped).toMatchObject({ status: 200, body: { id: hex(5) } })
    for (let i = 0; i < 2; i++) {
      const stored = await post(`/api/${p.number}/store/`, errorEvent(hex(6), 'stored'), headers)
      expect(stored).toMatchObject({ status: 200, body: { id: hex(6) } })
    }
    expect(await storedEvents(p.projectId)).toBe(2)
    const bad = await post(`/api/${p.number}/envelope/`, gzipSync(body).subarray(0, 20), {
      ...headers,
      'content-encoding': 'gzip',
    })
    expect(bad).toMatchObject({ status: 400, body: { error: 'the body is not valid gzip' } })
  })

  it('answers 429 with Retry-After and X-Sentry-Rate-Limits once the project is over its cap', async () => {
    const p = await project()
    const set = await p.c.api('PUT', `/api/v1/projects/${p.projectId}/rate_limits`, {
      token: ADMIN_TOKEN,
      json: { rate_limit: { requests: 1 } },
    })
    expect(set.status, set.text).toBe(200)
    const headers = { 'x-sentry-auth': auth(p.sentryKey) }
    const body = (n: number) => envelope({}, [[{ type: 'event' }, errorEvent(hex(n))]])
    expect((await post(`/api/${p.number}/envelope/`, body(7), headers)).status).toBe(200)
    const refused = await post(`/api/${p.number}/envelope/`, body(8), headers)
    expect(refused.status).toBe(429)
    const retryAfter = refused.headers.get('retry-after')
    expect(Number(retryAfter)).toBeGreaterThan(0)
    expect(refused.headers.get('x-sentry-rate-limits')).toBe(`${retryAfter}::organization`)
    expect(await storedEvents(p.projectId)).toBe(1)
  })

  it('lets a browser read the answers (CORS)', async () => {
    const p = await project()
    const r = await fetch(`${harness.url}/api/${p.number}/envelope/?sentry_key=${p.sentryKey}`, {
      method: 'POST',
      headers: { origin: 'https://shop.test', 'content-type': 'text/plain;charset=UTF-8' },
      body: envelope({}, [[{ type: 'event' }, errorEvent(hex(10))]]),
    })
    expect(r.status).toBe(200)
    expect(r.headers.get('access-control-allow-origin')).toBe('*')
  })
})
