import { ADMIN_TOKEN, createClient, freshIp, type Harness } from '@tis/test-utils/server'
import { describe, expect, it } from 'vitest'

const SHA = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678'
const LOG = { event: { event_type: 'log', message: 'tick' } }

/** Each endpoint with its own counter (section 8, plus deployments and mobile tokens). */
const ENDPOINTS = [
  ['/api/v1/ingest_events', LOG],
  ['/api/v1/check_ins', { check_in: { slug: 'nightly' } }],
  [
    '/api/v1/deployments',
    { deployment: { release: '1.0.0', repository: 'acme/shop', commit_sha: SHA } },
  ],
  [
    '/api/v1/mobile_ingest_tokens',
    { mobile_ingest_token: { platform: 'android', service: 'a', environment: 'production' } },
  ],
] as const

/** Section 8 over HTTP: counters per credential and endpoint, and project-level overrides. */
export function describeRateLimits(harness: () => Harness) {
  const client = () => createClient(harness().url)

  /** An Android project (so mobile tokens can be minted) with one key. */
  async function project() {
    const c = client()
    const p = await c.createProject(ADMIN_TOKEN, 'android')
    const key = await c.createKey(p.id)
    return { c, projectId: p.id, key: key.token, keyId: key.id }
  }

  const setLimits = (projectId: string, token: string, rate_limit: unknown) =>
    client().api('PUT', `/api/v1/projects/${projectId}/rate_limits`, {
      token,
      json: { rate_limit },
    })

  it.each(ENDPOINTS)(
    'every 201 from %s carries the three X-RateLimit headers',
    async (path, json) => {
      const { c, key } = await project()
      for (let i = 0; i < 3; i++) {
        const r = await c.ingest(path, key, json)
        expect(r.status).toBe(201)
        expect(r.headers.get('x-ratelimit-limit')).toBe('25')
        expect(r.headers.get('x-ratelimit-remaining')).toBe(String(24 - i))
        const reset = Number(r.headers.get('x-ratelimit-reset'))
        expect(Number.isInteger(reset)).toBe(true)
        expect(reset).toBeGreaterThan(Date.now() / 1000)
      }
    },
  )

  it('counts each endpoint and each credential separately', async () => {
    const { c, projectId, key } = await project()
    await setLimits(projectId, ADMIN_TOKEN, { requests: 2 })
    const other = (await c.createKey(projectId)).token
    for (const [path, json] of ENDPOINTS) {
      expect((await c.ingest(path, key, json)).status).toBe(201)
      expect((await c.ingest(path, key, json)).status).toBe(201)
      const over = await c.ingest(path, key, json)
      expect(over.status).toBe(429)
      expect(over.body).toEqual({
        error: 'Rate limit exceeded',
        limit: 2,
        window_seconds: 3600,
        retry_after: expect.any(Number),
      })
      expect(Number(over.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
      expect(over.headers.get('x-ratelimit-remaining')).toBe('0')
      // Another key of the same project has its own count.
      expect((await c.ingest(path, other, json)).status).toBe(201)
    }
    // Nothing is stored for a refused request: 2 + 1 events.
    const [row] = await harness().query<{ n: number }>(
      'select count(*)::int as n from events where project_id = $1',
      [projectId],
    )
    expect(row?.n).toBe(3)
  })

  it('counts missing, invalid, revoked and archived-project credentials per IP; valid ones keep working', async () => {
    const { c, projectId, key } = await project()
    const revoked = await c.createKey(projectId)
    await c.api('DELETE', `/api/v1/projects/${projectId}/api_keys/${revoked.id}`, {
      token: ADMIN_TOKEN,
    })
    const archived = await project()
    await c.api('POST', `/api/v1/projects/${archived.projectId}/archive`, { token: ADMIN_TOKEN })
    const ip = freshIp()
    const send = (credential: string | undefined) =>
      c.api('POST', '/api/v1/ingest_events', {
        json: LOG,
        ip,
        ...(credential === undefined ? {} : { apiKey: credential }),
      })
    const statuses = []
    for (const credential of [undefined, 'tis_invalid', revoked.token, archived.key, 'tis_x']) {
      statuses.push((await send(credential)).status)
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401])
    const over = await send(revoked.token)
    expect(over.status).toBe(429)
    expect(over.body).toMatchObject({ error: 'Rate limit exceeded', limit: 5, window_seconds: 60 })
    expect(over.headers.get('x-ratelimit-limit')).toBe('5')
    expect(over.headers.get('x-ratelimit-remaining')).toBe('0')
    expect(Number(over.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000)
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    // A valid credential from the same address is not affected.
    expect((await send(key)).status).toBe(201)
  })

  describe('project-level overrides (PUT/GET /api/v1/projects/:id/rate_limits)', () => {
    it('lets an administrator set and clear them, and applies them', async () => {
      const { c, projectId, key } = await project()
      const path = `/api/v1/projects/${projectId}/rate_limits`
      const defaults = await c.api('GET', path, { token: ADMIN_TOKEN })
      expect(defaults.body).toEqual({
        rate_limit: {
          requests: 25,
          period_seconds: 3600,
          auth_failure_requests: 5,
          overrides: { requests: null, period_seconds: null, auth_failure_requests: null },
        },
      })
      const set = await setLimits(projectId, ADMIN_TOKEN, { requests: 1, period_seconds: 7200 })
      expect(set.status).toBe(200)
      expect(set.body.rate_limit).toMatchObject({ requests: 1, period_seconds: 7200 })
      const first = await c.ingest('/api/v1/ingest_events', key, LOG)
      expect(first.status).toBe(201)
      expect(first.headers.get('x-ratelimit-limit')).toBe('1')
      const second = await c.ingest('/api/v1/ingest_events', key, LOG)
      expect(second.status).toBe(429)
      expect(second.body).toMatchObject({ limit: 1, window_seconds: 7200 })

      const cleared = await setLimits(projectId, ADMIN_TOKEN, null)
      expect(cleared.status).toBe(200)
      expect(cleared.body).toEqual(defaults.body)
      expect((await c.ingest('/api/v1/ingest_events', key, LOG)).status).toBe(201)
    })

    it('refuses owners and shared members with 403; both may read the effective limits', async () => {
      const c = client()
      const owner = await c.createUser()
      const member = await c.createUser()
      const p = await c.createProject(owner.token)
      await c.api('POST', `/api/v1/projects/${p.id}/members`, {
        token: owner.token,
        json: { member: { email: member.email } },
      })
      for (const token of [owner.token, member.token]) {
        const r = await setLimits(p.id, token, { requests: 1_000_000 })
        expect(r.status).toBe(403)
        expect(r.body).toEqual({ error: 'Forbidden' })
        const shown = await c.api('GET', `/api/v1/projects/${p.id}/rate_limits`, { token })
        expect(shown.status).toBe(200)
        expect(shown.body.rate_limit.requests).toBe(25)
      }
      const stranger = await c.createUser()
      expect((await setLimits(p.id, stranger.token, { requests: 1 })).status).toBe(404)
    })

    it('answers 422 for an invalid override', async () => {
      const { projectId } = await project()
      const r = await setLimits(projectId, ADMIN_TOKEN, { requests: 0, burst: 3 })
      expect(r.status).toBe(422)
      expect(r.body.errors.join('\n')).toMatch(/requests/)
    })
  })
}
