import { randomBytes } from 'node:crypto'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { gzipSync } from 'node:zlib'
import { startTisServer, type TisServer } from '@tis/test-utils/tis-server'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openEngine } from '../src/engine'
import { createFastifyApp } from '../src/fastify'
import { createNodeServer } from '../src/node-http'

// The same requests go to the reference server and to the engine embedded in node:http and in
// Fastify; every answer must be the same: status, the headers that matter, and the body once
// ids, tokens and timestamps (different in every database) are masked.
// The cap counts every authenticated request, refused ones included: the scenario's four earlier
// requests to the ingest endpoint leave room for two more before the 429.
const REQUESTS_PER_WINDOW = 6
const BURST = 3
const RATE_LIMIT_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']

let reference: TisServer
let closeEngine: (() => Promise<void>) | undefined
const embedded: { name: string; url: string; close(): Promise<unknown> }[] = []

beforeAll(async () => {
  const adminToken = `tis_user_${randomBytes(16).toString('hex')}`
  // One engine (one database) behind both hosts; each scenario uses its own project and key.
  const [started, tis] = await Promise.all([
    startTisServer({
      adminToken,
      env: { SERVICE_PUBLIC_API_RATE_LIMIT_REQUESTS: String(REQUESTS_PER_WINDOW) },
    }),
    openEngine({
      adminEmails: ['admin@tis.test'],
      adminToken,
      rateLimits: { requests: REQUESTS_PER_WINDOW },
    }),
  ])
  reference = started
  closeEngine = tis.close

  const server: Server = createNodeServer(tis.engine)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  embedded.push({
    name: 'node:http',
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(resolve)),
  })
  const app: FastifyInstance = createFastifyApp(tis.engine)
  embedded.push({
    name: 'fastify',
    url: (await app.listen({ port: 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1'),
    close: () => app.close(),
  })
})
afterAll(async () => {
  for (const server of embedded) await server.close()
  await closeEngine?.()
  await reference?.stop()
})

/** An answer as compared across servers. */
interface Answer {
  readonly request: string
  readonly status: number
  readonly headers: Record<string, string | null>
  readonly body: unknown
}

const MASKS: [RegExp, string][] = [
  [/^tis_\w{16,}$/, '<token>'],
  [/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, '<id>'],
  [/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/, '<time>'],
  // A project's Sentry DSN names its key, the host it was asked of and the project's number.
  [/^https?:\/\/[0-9a-f]{32}@[^/]+\/\d+$/, '<dsn>'],
]

/** The body with everything that differs between databases masked. */
function mask(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) return value.map((v) => mask(v))
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mask(v, k)]))
  }
  if (key === 'legacy_id' && typeof value === 'number') return '<legacy-id>'
  if (key === 'number' && typeof value === 'number') return '<project-number>'
  // Seconds until the window ends, like the Retry-After header: depends on the second it is sent.
  if (key === 'retry_after' && typeof value === 'number' && value >= 1) return '<seconds>'
  if (key === 'name' && typeof value === 'string' && value.startsWith('shop-')) return '<shop>'
  if (typeof value === 'string') {
    for (const [pattern, replacement] of MASKS) if (pattern.test(value)) return replacement
    // A key's visible prefix: the first characters of a random token.
    if (/prefix/.test(key)) return '<prefix>'
  }
  return value
}

/** Sends the whole scenario to one server, in order, and records every answer. */
async function scenario(baseUrl: string, adminToken: string, shop: string): Promise<Answer[]> {
  const answers: Answer[] = []
  const send = async (
    request: string,
    init: { key?: string; admin?: boolean; body?: string | Uint8Array; gzip?: boolean },
  ) => {
    const [method = 'GET', path = '/'] = request.split(' ')
    const headers: Record<string, string> = {}
    if (init.admin) headers['Authorization'] = `Bearer ${adminToken}`
    if (init.key) headers['X-Api-Key'] = init.key
    if (init.body !== undefined) headers['Content-Type'] = 'application/json'
    if (init.gzip) headers['Content-Encoding'] = 'gzip'
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers,
      ...(init.body === undefined ? {} : { body: init.body as BodyInit }),
    })
    const text = await response.text()
    const body = text === '' ? null : JSON.parse(text)
    const picked: Record<string, string | null> = {
      'content-type': response.headers.get('content-type'),
    }
    for (const name of RATE_LIMIT_HEADERS) picked[name] = response.headers.get(name)
    picked['retry-after'] = response.headers.get('retry-after')
    // Reset and Retry-After are seconds until the window ends: present, not equal to the second.
    for (const name of ['x-ratelimit-reset', 'retry-after']) {
      if (picked[name] !== null) picked[name] = /^\d+$/.test(picked[name] ?? '') ? '<n>' : 'bad'
    }
    answers.push({
      request: request.replace(/[0-9a-f-]{36}/, ':id'),
      status: response.status,
      headers: picked,
      body: mask(body),
    })
    return body
  }
  const event = (message: string) => JSON.stringify({ event: { event_type: 'error', message } })

  const { project } = await send('POST /api/v1/projects', {
    admin: true,
    body: JSON.stringify({ project: { name: shop, integration_kind: 'node' } }),
  })
  const { token: key } = await send(`POST /api/v1/projects/${project.id}/api_keys`, { admin: true })
  await send('POST /api/v1/projects', { admin: true, body: '{"project": {"name": ""}}' })
  await send('POST /api/v1/ingest_events', { key, body: event('Checkout failed') })
  await send('POST /api/v1/ingest_events', { key, body: '{"event": ' })
  await send('POST /api/v1/ingest_events', { key, body: '{"event": {"event_type": "nope"}}' })
  await send('POST /api/v1/ingest_events', { key, body: '{}' })
  await send('POST /api/v1/ingest_events', { key: 'tis_not_a_key', body: event('x') })
  await send('POST /api/v1/check_ins', {
    key,
    body: '{"check_in": {"slug": "nightly", "status": "ok", "expected_interval_seconds": 3600}}',
  })
  await send('POST /api/v1/deployments', {
    key,
    body: '{"deployment": {"release": "v1", "repository": "acme/shop", "commit_sha": "abc1234"}}',
  })
  await send('POST /api/v1/deployments', { key, body: '{"deployment": {"release": "v1"}}' })
  // Compressed bodies: decoding is the host's (the example's `zlibInflater`), the answers the engine's.
  await send('POST /api/v1/ingest_events', { key, gzip: true, body: gzipSync(event('Zipped')) })
  await send('POST /api/v1/ingest_events', { key, gzip: true, body: 'not gzip' })
  // Past the cap of the ingest endpoint: 429 with Retry-After.
  for (let i = 0; i < BURST; i += 1) {
    await send('POST /api/v1/ingest_events', { key, body: event(`Burst ${i}`) })
  }
  await send(`GET /api/v1/projects/${project.id}/events?event_type=error`, { admin: true })
  return answers
}

describe('the engine embedded in node:http and Fastify answers like the reference server', () => {
  it('for every request of the scenario', async () => {
    const expected = await scenario(reference.url, reference.adminToken, 'shop-reference')
    // The scenario covers what it claims to, on the reference server itself.
    expect(expected.map((a) => `${a.request} ${a.status}`)).toEqual([
      'POST /api/v1/projects 201',
      'POST /api/v1/projects/:id/api_keys 201',
      'POST /api/v1/projects 422',
      'POST /api/v1/ingest_events 201',
      'POST /api/v1/ingest_events 400',
      'POST /api/v1/ingest_events 422',
      'POST /api/v1/ingest_events 400',
      'POST /api/v1/ingest_events 401',
      'POST /api/v1/check_ins 201',
      'POST /api/v1/deployments 201',
      'POST /api/v1/deployments 422',
      'POST /api/v1/ingest_events 201',
      'POST /api/v1/ingest_events 400',
      'POST /api/v1/ingest_events 429',
      'POST /api/v1/ingest_events 429',
      'POST /api/v1/ingest_events 429',
      'GET /api/v1/projects/:id/events?event_type=error 200',
    ])
    expect(expected.find((a) => a.status === 429)?.headers['retry-after']).toBe('<n>')

    for (const server of embedded) {
      const answers = await scenario(server.url, reference.adminToken, `shop-${server.name}`)
      expect({ server: server.name, answers }).toEqual({ server: server.name, answers: expected })
    }
  })
})
