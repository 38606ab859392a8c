import {
  ADMIN_TOKEN,
  type CallOptions,
  createClient,
  freshIp,
  type Harness,
} from '@tis/test-utils/server'
import { describe, expect, it } from 'vitest'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
const SHA = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678'

/** One valid body per endpoint, and what its 201 answer looks like. */
const ACCEPTED = [
  {
    rule: 'an error event',
    path: '/api/v1/ingest_events',
    json: { event: { event_type: 'error', message: 'Boom' } },
    body: { id: expect.stringMatching(UUID), legacy_id: expect.any(Number), status: 'accepted' },
  },
  {
    rule: 'an uppercase EVENT envelope with camelCase fields',
    path: '/api/v1/ingest_events',
    json: { EVENT: { eventType: 'log', message: 'hello', durationMs: 3 } },
    body: { id: expect.stringMatching(UUID), legacy_id: expect.any(Number), status: 'accepted' },
  },
  {
    rule: 'a span',
    path: '/api/v1/ingest_events',
    json: { event: { event_type: 'span', name: 'GET /', trace_id: 't1', span_id: 's1' } },
    body: {
      id: expect.stringMatching(UUID),
      legacy_id: expect.any(Number),
      status: 'accepted',
      type: 'span',
    },
  },
  {
    rule: 'a check-in (no legacy_id)',
    path: '/api/v1/check_ins',
    json: { check_in: { slug: 'nightly' } },
    body: { id: expect.stringMatching(UUID), status: 'accepted' },
  },
  {
    rule: 'an uppercase CHECK_IN envelope with camelCase fields',
    path: '/api/v1/check_ins',
    json: { CHECK_IN: { slug: 'hourly', expectedIntervalSeconds: 3600, durationMs: 12 } },
    body: { id: expect.stringMatching(UUID), status: 'accepted' },
  },
  {
    rule: 'a deployment',
    path: '/api/v1/deployments',
    json: { deployment: { release: '1.0.0', repository: 'acme/shop', commit_sha: SHA } },
    body: { id: expect.stringMatching(UUID), legacy_id: expect.any(Number), status: 'accepted' },
  },
] as const

const CREDENTIAL_HEADERS = [
  ['Authorization: Bearer', (key: string): CallOptions => ({ token: key })],
  ['X-Api-Key', (key: string): CallOptions => ({ apiKey: key })],
] as const

const ENDPOINTS = [
  ['/api/v1/ingest_events', 'event'],
  ['/api/v1/check_ins', 'check_in'],
  ['/api/v1/deployments', 'deployment'],
] as const

/** Bodies that have no usable envelope: each answers 400 naming the envelope key. */
const UNUSABLE_BODIES = [
  ['an empty object', '{}'],
  ['another root key', '{"payload":{"message":"x"}}'],
  ['a null envelope', null],
  ['an array', '[]'],
  ['malformed JSON', '{"event":'],
  ['an empty body', ''],
] as const

/** Waits while a fixed window of `seconds` is about to roll over, so a count is not reset mid-test. */
async function awayFromWindowEdge(seconds: number) {
  const left = seconds - ((Date.now() / 1000) % seconds)
  if (left < 5) await new Promise((resolve) => setTimeout(resolve, left * 1000 + 100))
}

function expectRateLimitHeaders(headers: Headers, limit: number) {
  expect(headers.get('x-ratelimit-limit')).toBe(String(limit))
  expect(headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/)
  expect(Number(headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000)
}

/** Section 7 of the interface, over HTTP: every status of the three ingestion endpoints. */
export function describeIngestStatuses(harness: () => Harness) {
  const client = () => createClient(harness().url)

  describe('201 accepted', () => {
    for (const [header, credential] of CREDENTIAL_HEADERS) {
      it.each(ACCEPTED)(`accepts $rule with ${header}`, async ({ path, json, body }) => {
        const { key } = await client().projectWithKey()
        const r = await client().api('POST', path, { json, ...credential(key) })
        expect(r.status).toBe(201)
        expect(r.body).toEqual(body)
        expectRateLimitHeaders(r.headers, 25)
        expect(r.headers.get('x-ratelimit-remaining')).toBe('24')
      })
    }
  })

  describe('400 unusable envelope', () => {
    for (const [path, envelope] of ENDPOINTS) {
      it.each(UNUSABLE_BODIES)(`POST ${path} with %s`, async (_rule, text) => {
        const { key } = await client().projectWithKey()
        const body = text ?? `{"${envelope}":null}`
        const r = await client().api('POST', path, { apiKey: key, text: body })
        expect(r.status).toBe(400)
        expect(Object.keys(r.body)).toEqual(['error'])
        expect(r.body.error).toMatch(
          new RegExp(`^param is missing or the value is empty: ${envelope}\\b`),
        )
      })
    }
  })

  describe('401 Unauthorized', () => {
    const cases: Array<
      [string, (key: string, c: ReturnType<typeof client>) => Promise<CallOptions>]
    > = [
      ['no credential', async () => ({})],
      ['an unknown token', async () => ({ apiKey: 'tis_0000000000000000' })],
      [
        'a non-Bearer Authorization',
        async (key) => ({ headers: { Authorization: `Basic ${key}` } }),
      ],
      ['a user access token', async () => ({ token: (await client().createUser()).token })],
      [
        'a revoked key',
        async (_key, c) => {
          const project = await c.createProject()
          const revoked = await c.createKey(project.id)
          const path = `/api/v1/projects/${project.id}/api_keys/${revoked.id}`
          const del = await c.api('DELETE', path, { token: ADMIN_TOKEN })
          expect(del.status).toBe(204)
          return { apiKey: revoked.token }
        },
      ],
    ]
    for (const [path] of ENDPOINTS) {
      it.each(cases)(`POST ${path} with %s`, async (_rule, credential) => {
        const c = client()
        const { key } = await c.projectWithKey()
        const r = await c.api('POST', path, { json: { event: {} }, ...(await credential(key, c)) })
        expect(r.status).toBe(401)
        expect(r.text).toBe('{"error":"Unauthorized"}')
      })
    }
  })

  describe('422 validation', () => {
    it.each([
      ['an event without message', '/api/v1/ingest_events', { event: { event_type: 'log' } }],
      [
        'an unknown event_type',
        '/api/v1/ingest_events',
        { event: { event_type: 'x', message: 'm' } },
      ],
      [
        'a negative duration',
        '/api/v1/ingest_events',
        { event: { event_type: 'transaction', message: 'm', duration_ms: -1 } },
      ],
      ['a check-in without slug', '/api/v1/check_ins', { check_in: { status: 'ok' } }],
      [
        'a check-in interval of 0',
        '/api/v1/check_ins',
        { check_in: { slug: 's', expected_interval_seconds: 0 } },
      ],
      [
        'a deployment with a bad sha',
        '/api/v1/deployments',
        { deployment: { release: '1', repository: 'a/b', commit_sha: 'xyz' } },
      ],
    ])('%s', async (_rule, path, json) => {
      const { key } = await client().projectWithKey()
      const r = await client().ingest(path, key, json)
      expect(r.status).toBe(422)
      expect(Object.keys(r.body)).toEqual(['errors'])
      expect(r.body.errors.length).toBeGreaterThan(0)
      for (const message of r.body.errors) expect(typeof message).toBe('string')
      expectRateLimitHeaders(r.headers, 25)
    })
  })

  describe('429 rate limits', () => {
    it('caps accepted requests per token and endpoint, with Retry-After and X-RateLimit-*', async () => {
      const c = client()
      const { key } = await c.projectWithKey()
      await awayFromWindowEdge(3600)
      const event = { event: { event_type: 'log', message: 'tick' } }
      const statuses: number[] = []
      for (let i = 0; i < 25; i++)
        statuses.push((await c.ingest('/api/v1/ingest_events', key, event)).status)
      expect(statuses).toEqual(Array(25).fill(201))
      const r = await c.ingest('/api/v1/ingest_events', key, event)
      expect(r.status).toBe(429)
      expect(r.body).toEqual({
        error: 'Rate limit exceeded',
        limit: 25,
        window_seconds: 3600,
        retry_after: expect.any(Number),
      })
      expect(Number(r.headers.get('retry-after'))).toBe(r.body.retry_after)
      expect(r.body.retry_after).toBeGreaterThanOrEqual(1)
      expect(r.headers.get('x-ratelimit-remaining')).toBe('0')
      expectRateLimitHeaders(r.headers, 25)
      // Check-ins are counted separately (section 8).
      const checkIn = await c.ingest('/api/v1/check_ins', key, { check_in: { slug: 'other' } })
      expect(checkIn.status).toBe(201)
    })

    it('caps authentication failures per client IP', async () => {
      const c = client()
      const ip = freshIp()
      const bad = { apiKey: 'tis_not_a_key', ip, json: { event: {} } }
      await awayFromWindowEdge(60)
      const statuses: number[] = []
      for (let i = 0; i < 5; i++)
        statuses.push((await c.api('POST', '/api/v1/ingest_events', bad)).status)
      expect(statuses).toEqual([401, 401, 401, 401, 401])
      const r = await c.api('POST', '/api/v1/check_ins', bad)
      expect(r.status).toBe(429)
      expect(r.body).toMatchObject({ error: 'Rate limit exceeded', limit: 5, window_seconds: 60 })
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
      // Another client (per X-Forwarded-For from the trusted proxy) is not affected.
      const other = await c.api('POST', '/api/v1/ingest_events', { ...bad, ip: freshIp() })
      expect(other.status).toBe(401)
    })
  })
}
