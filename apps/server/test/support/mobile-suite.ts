import { createHash } from 'node:crypto'
import { ADMIN_TOKEN, type CallOptions, createClient, type Harness } from '@tis/test-utils/server'
import { describe, expect, it } from 'vitest'

const MINT = '/api/v1/mobile_ingest_tokens'
const EVENT_TYPES = ['error', 'log', 'metric', 'transaction', 'span', 'check_in']
const SHA = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678'

/** A valid mint request for an Android project. */
const REQUEST = { platform: 'android', service: 'com.acme.app', environment: 'production' }

/** One valid event of each type. */
const EVENTS: Record<string, unknown> = {
  error: { event_type: 'error', message: 'Boom' },
  log: { event_type: 'log', message: 'hello' },
  metric: { event_type: 'metric', message: 'db.query', context: { value: 3 } },
  transaction: { event_type: 'transaction', message: 'GET /', duration_ms: 4 },
  span: { event_type: 'span', name: 'GET /', trace_id: 't1', span_id: 's1' },
  check_in: { event_type: 'check_in', message: 'tick', check_in_slug: 'nightly' },
}

/** Mint requests that are refused with 422, and a message each must contain. */
const INVALID_MINTS = [
  ['platform not matching the project (android)', { ...REQUEST, platform: 'ios' }, 'platform'],
  ['an unknown property', { ...REQUEST, device: 'pixel' }, 'device'],
  ['a missing service', { platform: 'android', environment: 'production' }, 'service'],
  ['a missing environment', { platform: 'android', service: 'x' }, 'environment'],
  ['an unknown platform', { ...REQUEST, platform: 'windows' }, 'platform'],
  ['expires_in_seconds 59 (below 60)', { ...REQUEST, expires_in_seconds: 59 }, '60'],
  ['expires_in_seconds 3601 (above 3600)', { ...REQUEST, expires_in_seconds: 3601 }, '3600'],
  ['an unknown event type', { ...REQUEST, allowed_event_types: ['trace'] }, 'allowed_event_types'],
] as const

/** `expiresAt` is `seconds` after some moment between `before` and `after` (ms). */
function expectLifetime(expiresAt: string, before: number, after: number, seconds: number) {
  const expires = Date.parse(expiresAt)
  expect(expires).toBeGreaterThanOrEqual(before + seconds * 1000)
  expect(expires).toBeLessThanOrEqual(after + seconds * 1000)
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex')

/** Mobile ingest tokens over HTTP: minting, what a token may do, its binding, its lifecycle. */
export function describeMobileTokens(harness: () => Harness) {
  const client = () => createClient(harness().url)

  /** An Android project, a server key, and a mint call with that key. */
  async function androidProject() {
    const c = client()
    const project = await c.createProject(ADMIN_TOKEN, 'android')
    const key = await c.createKey(project.id)
    const mint = (body: unknown, options: CallOptions = {}) =>
      c.api('POST', MINT, { apiKey: key.token, json: { mobile_ingest_token: body }, ...options })
    return { c, project, key, mint }
  }

  /** A minted token (201 asserted) for `body` merged over {@link REQUEST}. */
  async function minted(body: Record<string, unknown> = {}) {
    const p = await androidProject()
    const r = await p.mint({ ...REQUEST, ...body })
    if (r.status !== 201) throw new Error(`mint answered ${r.status}: ${r.text}`)
    const token = r.body.token as string
    const send = (path: string, json: unknown) => p.c.api('POST', path, { token, json })
    return { ...p, token, reply: r, send }
  }

  describe('minting (POST /api/v1/mobile_ingest_tokens)', () => {
    it('answers 201 with the token record, the token stored only as a digest', async () => {
      const before = Date.now()
      const { reply, token, c, project } = await minted()
      const after = Date.now()
      expect(reply.body).toEqual({
        token: expect.stringMatching(/^tis_mobile_[0-9a-f]{64}$/),
        expires_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/),
        platform: 'android',
        service: 'com.acme.app',
        environment: 'production',
        allowed_event_types: EVENT_TYPES,
      })
      // Default lifetime: 900 seconds from the moment of the request.
      expectLifetime(reply.body.expires_at, before, after, 900)
      expect(reply.headers.get('x-ratelimit-limit')).toBe('25')
      const rows = await harness().query<{ token_digest: string }>(
        `select token_digest from api_keys where project_id = $1 and kind = 'mobile'`,
        [project.id],
      )
      expect(rows).toEqual([{ token_digest: sha256(token) }])
      const listed = await c.api('GET', `/api/v1/projects/${project.id}/mobile_tokens`, {
        token: ADMIN_TOKEN,
      })
      expect(listed.text).not.toContain(token)
    })

    it('echoes release and session_id, and keeps the allowed types it is given', async () => {
      const { reply } = await minted({
        release: '1.4.0',
        sessionId: 'sess-9',
        allowed_event_types: ['error', 'check_in'],
      })
      expect(reply.body).toMatchObject({
        release: '1.4.0',
        session_id: 'sess-9',
        allowed_event_types: ['error', 'check_in'],
      })
    })

    it('accepts the MOBILE_INGEST_TOKEN envelope and an iOS token for an iOS project', async () => {
      const c = client()
      const project = await c.createProject(ADMIN_TOKEN, 'ios')
      const key = await c.createKey(project.id)
      const r = await c.api('POST', MINT, {
        token: key.token,
        json: { MOBILE_INGEST_TOKEN: { ...REQUEST, platform: 'ios' } },
      })
      expect(r.status).toBe(201)
      expect(r.body.platform).toBe('ios')
    })

    it.each([
      [60, 60],
      [3600, 3600],
    ])('expires_in_seconds %i is within bounds (lifetime %i s)', async (seconds, lifetime) => {
      const before = Date.now()
      const { reply } = await minted({ expires_in_seconds: seconds })
      expectLifetime(reply.body.expires_at, before, Date.now(), lifetime)
    })

    it.each(INVALID_MINTS)('answers 422 for %s', async (_rule, body, fragment) => {
      const { mint } = await androidProject()
      const r = await mint(body)
      expect(r.status).toBe(422)
      expect(r.body.errors.join('\n')).toContain(fragment)
      expect(r.headers.get('x-ratelimit-limit')).toBe('25')
    })

    it('names both values when the platform does not match the integration kind', async () => {
      const c = client()
      const project = await c.createProject(ADMIN_TOKEN, 'node')
      const key = await c.createKey(project.id)
      const r = await c.api('POST', MINT, {
        apiKey: key.token,
        json: { mobile_ingest_token: REQUEST },
      })
      expect(r.status).toBe(422)
      expect(r.body).toEqual({
        errors: [
          "platform does not match the project's integration kind (project: node, sent: android)",
        ],
      })
    })

    it('answers 400 without an envelope and 401 without a credential', async () => {
      const { c, key } = await androidProject()
      expect((await c.api('POST', MINT, { apiKey: key.token, json: {} })).status).toBe(400)
      expect((await c.api('POST', MINT, { json: { mobile_ingest_token: REQUEST } })).status).toBe(
        401,
      )
    })

    it('refuses a mobile token on the mint endpoint with 403', async () => {
      const { c, token } = await minted()
      const r = await c.api('POST', MINT, { token, json: { mobile_ingest_token: REQUEST } })
      expect(r.status).toBe(403)
      expect(r.body).toEqual({ error: 'Forbidden' })
    })
  })

  describe('what a token may do', () => {
    it.each(EVENT_TYPES)(
      'accepts a %s event when its type is allowed (default: all six)',
      async (type) => {
        const { send } = await minted()
        const r = await send('/api/v1/ingest_events', { event: EVENTS[type] })
        expect(r.status).toBe(201)
        expect(r.headers.get('x-ratelimit-remaining')).toBe('24')
      },
    )

    it('accepts a check-in on POST /api/v1/check_ins', async () => {
      const { send } = await minted()
      expect((await send('/api/v1/check_ins', { check_in: { slug: 'sync' } })).status).toBe(201)
    })

    it.each(EVENT_TYPES)(
      'refuses a %s event with 403 when its type is not allowed',
      async (type) => {
        const others = EVENT_TYPES.filter((t) => t !== type)
        const { send } = await minted({ allowed_event_types: others })
        const r = await send('/api/v1/ingest_events', { event: EVENTS[type] })
        expect(r.status).toBe(403)
        expect(r.body).toEqual({ error: 'Forbidden' })
      },
    )

    it('refuses a compact check-in with 403 when check_in is not allowed', async () => {
      const { send } = await minted({ allowed_event_types: ['error'] })
      const r = await send('/api/v1/check_ins', { check_in: { slug: 'sync' } })
      expect(r.status).toBe(403)
    })

    it('refuses the deployments endpoint with 403', async () => {
      const { send } = await minted()
      const r = await send('/api/v1/deployments', {
        deployment: { release: '1.0.0', repository: 'acme/app', commit_sha: SHA },
      })
      expect(r.status).toBe(403)
      expect(r.body).toEqual({ error: 'Forbidden' })
    })
  })

  describe('binding', () => {
    const bound = { release: '2.0.0', session_id: 'sess-1' }

    it.each([
      [
        'environment',
        { environment: 'staging' },
        'environment does not match the token (token: production, sent: staging)',
      ],
      [
        'release',
        { release: '9.9.9' },
        'release does not match the token (token: 2.0.0, sent: 9.9.9)',
      ],
      [
        'session_id',
        { session_id: 'other' },
        'session_id does not match the token (token: sess-1, sent: other)',
      ],
      [
        'context.service',
        { context: { service: 'com.evil' } },
        'service does not match the token (token: com.acme.app, sent: com.evil)',
      ],
      [
        'context.platform',
        { context: { platform: 'ios' } },
        'platform does not match the token (token: android, sent: ios)',
      ],
    ])(
      'answers 422 for an event whose %s contradicts the token',
      async (_field, fields, message) => {
        const { send } = await minted(bound)
        const r = await send('/api/v1/ingest_events', {
          event: { ...(EVENTS['log'] as object), ...fields },
        })
        expect(r.status).toBe(422)
        expect(r.body).toEqual({ errors: [message] })
      },
    )

    it.each([
      [
        'environment',
        { environment: 'staging' },
        'environment does not match the token (token: production, sent: staging)',
      ],
      [
        'release',
        { release: '9.9.9' },
        'release does not match the token (token: 2.0.0, sent: 9.9.9)',
      ],
    ])(
      'answers 422 for a check-in whose %s contradicts the token',
      async (_field, fields, message) => {
        const { send } = await minted(bound)
        const r = await send('/api/v1/check_ins', { check_in: { slug: 'sync', ...fields } })
        expect(r.status).toBe(422)
        expect(r.body).toEqual({ errors: [message] })
      },
    )

    it('writes the bound values into every accepted event context', async () => {
      const { send } = await minted(bound)
      const r = await send('/api/v1/ingest_events', {
        event: {
          ...(EVENTS['error'] as object),
          environment: 'production',
          context: { user_id: 7 },
        },
      })
      expect(r.status).toBe(201)
      const [row] = await harness().query<{
        environment: string
        release: string
        payload: { context: unknown }
      }>('select environment, release, payload from events where id = $1', [r.body.id])
      expect(row).toMatchObject({ environment: 'production', release: '2.0.0' })
      expect(row?.payload.context).toMatchObject({
        platform: 'android',
        service: 'com.acme.app',
        environment: 'production',
        release: '2.0.0',
        session_id: 'sess-1',
        user_id: 7,
      })
    })

    it('gives check-ins the bound environment and release', async () => {
      const { send } = await minted(bound)
      const r = await send('/api/v1/check_ins', { check_in: { slug: 'sync' } })
      expect(r.status).toBe(201)
      const [row] = await harness().query<{
        environment: string
        release: string
        payload: object
      }>('select environment, release, payload from check_ins where id = $1', [r.body.id])
      expect(row).toMatchObject({ environment: 'production', release: '2.0.0' })
      expect(row?.payload).toMatchObject({
        platform: 'android',
        service: 'com.acme.app',
        session_id: 'sess-1',
      })
    })
  })

  describe('lifecycle: 401 once expired, revoked, orphaned or archived', () => {
    const log = { event: { event_type: 'log', message: 'hi' } }

    it('answers 401 once expires_at is reached (server clock moved forward)', async () => {
      const { send } = await minted({ expires_in_seconds: 60 })
      expect((await send('/api/v1/ingest_events', log)).status).toBe(201)
      harness().advance(61)
      const r = await send('/api/v1/ingest_events', log)
      expect(r.status).toBe(401)
      expect(r.body).toEqual({ error: 'Unauthorized' })
    })

    it('lists live tokens without plaintext and answers 401 once one is revoked', async () => {
      const { c, project, token, send, reply } = await minted()
      const path = `/api/v1/projects/${project.id}/mobile_tokens`
      const listed = await c.api('GET', path, { token: ADMIN_TOKEN })
      expect(listed.status).toBe(200)
      expect(listed.body.mobile_tokens).toEqual([
        expect.objectContaining({
          id: expect.any(String),
          platform: 'android',
          service: 'com.acme.app',
          expires_at: reply.body.expires_at,
          allowed_event_types: EVENT_TYPES,
        }),
      ])
      expect(listed.text).not.toContain(token)
      const id = listed.body.mobile_tokens[0].id
      expect((await c.api('DELETE', `${path}/${id}`, { token: ADMIN_TOKEN })).status).toBe(204)
      expect((await c.api('DELETE', `${path}/not-a-uuid`, { token: ADMIN_TOKEN })).status).toBe(404)
      expect((await c.api('GET', path, { token: ADMIN_TOKEN })).body).toEqual({ mobile_tokens: [] })
      expect((await send('/api/v1/ingest_events', log)).status).toBe(401)
    })

    it('answers 401 once the API key that minted it is revoked', async () => {
      const { c, project, key, send } = await minted()
      const del = await c.api('DELETE', `/api/v1/projects/${project.id}/api_keys/${key.id}`, {
        token: ADMIN_TOKEN,
      })
      expect(del.status).toBe(204)
      expect((await send('/api/v1/ingest_events', log)).status).toBe(401)
    })

    it('answers 401 once the project is archived', async () => {
      const { c, project, send } = await minted()
      const archived = await c.api('POST', `/api/v1/projects/${project.id}/archive`, {
        token: ADMIN_TOKEN,
      })
      expect(archived.status).toBe(200)
      expect((await send('/api/v1/check_ins', { check_in: { slug: 's' } })).status).toBe(401)
    })
  })
}
