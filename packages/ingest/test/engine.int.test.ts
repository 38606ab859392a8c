// The engine end to end over the real store on PGlite: credentials, statuses, limits, routing
// and the management API, exactly as a host that embeds the engine sees them.

import {
  bearer,
  openAdminTestEngine,
  openTestEngine,
  TEST_ADMIN_TOKEN,
  type TestEngine,
} from '@tis/test-utils/engine'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  bootstrapAdmin,
  createEngine,
  type Engine,
  type EngineConfig,
  type EngineResponse,
  type EngineStore,
  type WriteOp,
} from '../src/index'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

let base: TestEngine
let store: EngineStore
const written: WriteOp[] = []
const engines: Engine[] = []

function engine(config: EngineConfig = {}, now?: () => Date): Engine {
  // The real store, with every appended record remembered so tests can look at what was built.
  const recording = new Proxy(store, {
    get(target, prop) {
      if (prop === 'append') {
        return (batch: readonly WriteOp[], options?: Parameters<EngineStore['append']>[1]) => {
          written.push(...batch)
          return target.append(batch, options)
        }
      }
      const value = Reflect.get(target, prop)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
  const e = createEngine({
    store: recording,
    config: {
      adminEmails: ['admin@example.com'],
      alerts: { worker: false },
      retention: { intervalSeconds: 0 },
      ...config,
    },
    ...(now ? { adapters: { now } } : {}),
  })
  e.start()
  engines.push(e)
  return e
}

const admin = bearer(TEST_ADMIN_TOKEN)

async function newProject(e: Engine, kind = 'node') {
  const project = await e.management.createProject({
    headers: admin,
    body: { project: { name: `p-${Math.random()}`, integration_kind: kind } },
  })
  const id = (project.body as { project: { id: string } }).project.id
  const key = await e.management.createApiKey({ headers: admin, params: { id }, body: undefined })
  return {
    id,
    token: (key.body as { token: string }).token,
    keyId: (key.body as { api_key: { id: string } }).api_key.id,
  }
}

const event = (fields: object = {}) => ({
  event: { event_type: 'log', message: 'hello', ...fields },
})

beforeAll(async () => {
  base = await openAdminTestEngine()
  store = base.store
}, 60_000)

afterAll(async () => {
  for (const e of engines) await e.stop()
  await base?.close()
})

describe('accepted records (section 2.6)', () => {
  it('an event: 201 with a UUID, an integer legacy_id and the rate-limit headers', async () => {
    const e = engine()
    const { token } = await newProject(e)
    const res = await e.ingest.ingestEvent({ headers: bearer(token), body: event() })
    expect(res.status).toBe(201)
    expect(res.body).toEqual({
      id: expect.stringMatching(UUID),
      legacy_id: expect.any(Number),
      status: 'accepted',
    })
    expect(Number.isInteger((res.body as { legacy_id: number }).legacy_id)).toBe(true)
    expect(Object.keys(res.headers).sort()).toEqual([
      'X-RateLimit-Limit',
      'X-RateLimit-Remaining',
      'X-RateLimit-Reset',
    ])
    expect(res.headers['X-RateLimit-Limit']).toBe('1200')
    expect(res.headers['X-RateLimit-Remaining']).toBe('1199')
  })

  it('accepts the key in X-Api-Key as well', async () => {
    const e = engine()
    const { token } = await newProject(e)
    expect(
      (await e.ingest.ingestEvent({ headers: { 'X-Api-Key': token }, body: event() })).status,
    ).toBe(201)
  })

  it('a span answers with type "span"', async () => {
    const e = engine()
    const { token } = await newProject(e)
    const res = await e.ingest.ingestEvent({
      headers: bearer(token),
      body: { event: { event_type: 'span', name: 'db', kind: 'db' } },
    })
    expect(res).toMatchObject({
      status: 201,
      body: { type: 'span', status: 'accepted', legacy_id: expect.any(Number) },
    })
  })

  it('a check-in answers without legacy_id', async () => {
    const e = engine()
    const { token } = await newProject(e)
    const res = await e.ingest.checkIn({
      headers: bearer(token),
      body: { check_in: { slug: 'nightly' } },
    })
    expect(res.status).toBe(201)
    expect(res.body).toEqual({ id: expect.stringMatching(UUID), status: 'accepted' })
  })

  it('a deployment posted twice keeps its id and legacy_id', async () => {
    const e = engine()
    const { token } = await newProject(e)
    const body = { deployment: { release: 'v1', repository: 'o/n', commit_sha: 'abcdef1' } }
    const first = await e.ingest.recordDeployment({ headers: bearer(token), body })
    const again = await e.ingest.recordDeployment({
      headers: bearer(token),
      body: { deployment: { ...body.deployment, commit_sha: 'abcdef2' } },
    })
    expect(first.status).toBe(201)
    expect(again.body).toEqual(first.body)
  })

  it('parses raw text itself, answering malformed JSON with 400', async () => {
    const e = engine()
    const { token } = await newProject(e)
    expect(
      (await e.ingest.ingestEvent({ headers: bearer(token), text: JSON.stringify(event()) }))
        .status,
    ).toBe(201)
    const bad = await e.ingest.ingestEvent({ headers: bearer(token), text: '{"event": ' })
    expect(bad.status).toBe(400)
    expect((bad.body as { error: string }).error).toMatch(
      /^param is missing or the value is empty: event/,
    )
  })

  it('answers 400 and 422 with the schema messages', async () => {
    const e = engine()
    const { token } = await newProject(e)
    expect(await e.ingest.checkIn({ headers: bearer(token), body: {} })).toMatchObject({
      status: 400,
      body: { error: 'param is missing or the value is empty: check_in' },
    })
    expect(
      await e.ingest.ingestEvent({
        headers: bearer(token),
        body: { event: { event_type: 'log' } },
      }),
    ).toMatchObject({
      status: 422,
      body: { errors: ["message can't be blank"] },
    })
  })
})

describe('edge values reach the database without a 500', () => {
  it.each([
    ['a leap second', '2016-12-31T23:59:60Z'],
    ['the first instant of the stored window', '1970-01-01T00:00:00Z'],
    ['the last instant of the stored window', '2099-12-31T23:59:59.999999999Z'],
    ['the largest offsets', '2026-01-01T00:00:00+15:59'],
    ['a negative offset', '2026-01-01T00:00:00-15:59'],
  ])('%s in every date-time field', async (_rule, at) => {
    const e = engine()
    const { token } = await newProject(e)
    const h = { headers: bearer(token) }
    expect((await e.ingest.ingestEvent({ ...h, body: event({ occurred_at: at }) })).status).toBe(
      201,
    )
    const span = { event_type: 'span', name: 's', started_at: at, ended_at: at }
    expect((await e.ingest.ingestEvent({ ...h, body: { event: span } })).status).toBe(201)
    expect(
      (await e.ingest.checkIn({ ...h, body: { check_in: { slug: 's', occurred_at: at } } })).status,
    ).toBe(201)
    const deployment = { release: 'v1', repository: 'o/n', commit_sha: 'abcdef1', deployed_at: at }
    expect((await e.ingest.recordDeployment({ ...h, body: { deployment } })).status).toBe(201)
  })

  it('the largest expected_interval_seconds is stored from both check-in paths', async () => {
    const e = engine()
    const { token } = await newProject(e)
    const h = { headers: bearer(token) }
    const checkIn = { slug: 'yearly', expected_interval_seconds: 2_147_483_647 }
    expect((await e.ingest.checkIn({ ...h, body: { check_in: checkIn } })).status).toBe(201)
    const viaEvent = {
      event_type: 'check_in',
      message: 'ran',
      check_in_slug: 'yearly',
      expected_interval_seconds: 2_147_483_647,
    }
    expect((await e.ingest.ingestEvent({ ...h, body: { event: viaEvent } })).status).toBe(201)
  })

  it('strings with NUL characters and lone surrogates are stored', async () => {
    const e = engine()
    const { token } = await newProject(e)
    const message = 'nul \\u0000 and \\ud800 alone'
    const res = await e.ingest.ingestEvent({
      headers: bearer(token),
      text: `{"event":{"event_type":"error","message":"${message}","context":{"k\\u0000":"v"}}}`,
    })
    expect(res.status).toBe(201)
  })
})

describe('routing of accepted data (section 1)', () => {
  it('errors carry their issue grouping; other types do not', async () => {
    const e = engine()
    const { token } = await newProject(e)
    const post = async (fields: object) => {
      const res = await e.ingest.ingestEvent({ headers: bearer(token), body: event(fields) })
      return written.find((op) => op.id === (res.body as { id: string }).id)!
    }
    const a = await post({ event_type: 'error', message: 'Boom\nat a', fingerprint: 'fp-1' })
    const b = await post({ event_type: 'error', message: 'Other', fingerprint: 'fp-1' })
    const c = await post({ event_type: 'error', message: 'Boom\nat b' })
    const d = await post({ event_type: 'error', message: 'Boom\nat c' })
    const log = await post({ message: 'just a log' })
    const issue = (op: WriteOp) => (op.type === 'event' ? op.issue : null)
    expect(issue(a)?.hash).toBe(issue(b)?.hash)
    expect(issue(c)?.hash).toBe(issue(d)?.hash)
    expect(issue(a)?.hash).not.toBe(issue(c)?.hash)
    expect(issue(log)).toBeNull()
  })

  it('a check_in event updates the monitor of (slug, environment) with the check-in defaults', async () => {
    const e = engine({ serviceEnvironment: 'staging' })
    const { token } = await newProject(e)
    const res = await e.ingest.ingestEvent({
      headers: bearer(token),
      body: event({
        event_type: 'check_in',
        message: 'ran',
        check_in_slug: 'nightly',
        check_in_status: 'error',
      }),
    })
    const op = written.find((o) => o.id === (res.body as { id: string }).id)
    expect(op?.type === 'event' && op.monitor).toMatchObject({
      slug: 'nightly',
      environment: 'staging',
      status: 'error',
      health: 'error',
      expectedIntervalSeconds: 300,
    })
  })

  it('an event with release, repository and commit indexes a deployment', async () => {
    const e = engine()
    const { token } = await newProject(e)
    const res = await e.ingest.ingestEvent({
      headers: bearer(token),
      body: event({ release: 'v9', repository: 'o/n', commit_sha: 'ABCDEF0', environment: 'prod' }),
    })
    const op = written.find((o) => o.id === (res.body as { id: string }).id)
    expect(op?.type === 'event' && op.deployment).toMatchObject({
      release: 'v9',
      repository: 'o/n',
      commitSha: 'abcdef0',
      environment: 'prod',
      source: 'event',
    })
  })
})

describe('credentials (section 5)', () => {
  const cases: Array<[string, (t: string) => Record<string, string>]> = [
    ['no credential', () => ({})],
    ['an unknown token', () => bearer(`tis_${'0'.repeat(48)}`)],
    ['another scheme', (t) => ({ authorization: `Basic ${t}` })],
    ['an empty X-Api-Key', () => ({ 'x-api-key': '' })],
    ['a user access token', () => bearer(TEST_ADMIN_TOKEN)],
  ]

  it.each(cases)('401 for %s, on every endpoint', async (_rule, headers) => {
    const e = engine()
    const { token } = await newProject(e)
    for (const op of [e.ingest.ingestEvent, e.ingest.checkIn, e.ingest.recordDeployment]) {
      expect(await op({ headers: headers(token), body: event() })).toEqual({
        status: 401,
        headers: {},
        body: { error: 'Unauthorized' },
      })
    }
  })

  it('a revoked key is refused at once on the instance that revoked it', async () => {
    const e = engine()
    const { id, token, keyId } = await newProject(e)
    expect((await e.ingest.ingestEvent({ headers: bearer(token), body: event() })).status).toBe(201)
    expect(
      (await e.management.revokeApiKey({ headers: admin, params: { id, key_id: keyId } })).status,
    ).toBe(204)
    expect((await e.ingest.ingestEvent({ headers: bearer(token), body: event() })).status).toBe(401)
  })

  it('a revocation made on another instance takes effect within the cache time', async () => {
    const a = engine()
    const b = engine({ credentialCacheMs: 100 })
    const { id, token, keyId } = await newProject(a)
    expect((await b.ingest.ingestEvent({ headers: bearer(token), body: event() })).status).toBe(201)
    await a.management.revokeApiKey({ headers: admin, params: { id, key_id: keyId } })
    await new Promise((r) => setTimeout(r, 150))
    expect((await b.ingest.ingestEvent({ headers: bearer(token), body: event() })).status).toBe(401)
  })

  it('archive refuses the keys; restore keeps them refused until a fresh key is made', async () => {
    const e = engine()
    const { id, token } = await newProject(e)
    expect(await e.management.archiveProject({ headers: admin, params: { id } })).toMatchObject({
      status: 200,
      body: { project: { status: 'archived' } },
    })
    expect((await e.ingest.ingestEvent({ headers: bearer(token), body: event() })).status).toBe(401)
    expect(await e.management.createApiKey({ headers: admin, params: { id } })).toMatchObject({
      status: 422,
    })
    expect(await e.management.restoreProject({ headers: admin, params: { id } })).toMatchObject({
      status: 200,
      body: { project: { status: 'active' } },
    })
    expect(
      (await e.ingest.checkIn({ headers: bearer(token), body: { check_in: { slug: 's' } } }))
        .status,
    ).toBe(401)
    const fresh = await e.management.createApiKey({ headers: admin, params: { id } })
    const freshToken = (fresh.body as { token: string }).token
    expect(freshToken).toMatch(/^tis_[0-9a-f]{48}$/)
    expect(
      (await e.ingest.checkIn({ headers: bearer(freshToken), body: { check_in: { slug: 's' } } }))
        .status,
    ).toBe(201)
  })
})

describe('rate limits (section 8)', () => {
  const expect429 = (res: EngineResponse, limit: number) => {
    expect(res.status).toBe(429)
    expect(res.body).toEqual({
      error: 'Rate limit exceeded',
      limit,
      window_seconds: 60,
      retry_after: expect.any(Number),
    })
    expect(Number(res.headers['Retry-After'])).toBeGreaterThanOrEqual(1)
    expect(res.headers['X-RateLimit-Remaining']).toBe('0')
    expect(res.headers['X-RateLimit-Limit']).toBe(String(limit))
  }
  // Windows are fixed minutes: on a loaded machine a test on the wall clock can cross a minute
  // boundary between its requests, and the count starts again. Each test's clock stands still
  // half way through the current minute.
  const midMinute = () => {
    const at = new Date(Math.floor(Date.now() / 60_000) * 60_000 + 30_000)
    return () => at
  }

  it('caps accepted requests per token, separately per endpoint', async () => {
    const e = engine({ rateLimits: { requests: 2 } }, midMinute())
    const { token } = await newProject(e)
    for (let i = 0; i < 2; i++)
      expect((await e.ingest.ingestEvent({ headers: bearer(token), body: event() })).status).toBe(
        201,
      )
    expect429(await e.ingest.ingestEvent({ headers: bearer(token), body: event() }), 2)
    expect(
      (await e.ingest.checkIn({ headers: bearer(token), body: { check_in: { slug: 's' } } }))
        .status,
    ).toBe(201)
  })

  it('caps authentication failures per source IP', async () => {
    const e = engine({ rateLimits: { authFailures: 2 } }, midMinute())
    for (let i = 0; i < 2; i++)
      expect(
        (await e.ingest.ingestEvent({ headers: {}, ip: '10.0.0.1', body: event() })).status,
      ).toBe(401)
    expect429(await e.ingest.ingestEvent({ headers: {}, ip: '10.0.0.1', body: event() }), 2)
    expect(
      (await e.ingest.ingestEvent({ headers: {}, ip: '10.0.0.2', body: event() })).status,
    ).toBe(401)
  })
})

describe('management API', () => {
  async function user(e: Engine, email: string) {
    const res = await e.management.createUser({ headers: admin, body: { user: { email } } })
    return { ...(res.body as { user: { id: string }; access_token: string }), res }
  }
  const unique = (name: string) => `${name}-${Math.random().toString(36).slice(2)}@example.com`

  it('only administrators create users; emails are unique', async () => {
    const e = engine()
    const email = unique('u')
    const created = await user(e, email)
    expect(created.res).toMatchObject({
      status: 201,
      body: {
        user: { email, admin: false },
        access_token: expect.stringMatching(/^tis_user_[0-9a-f]{48}$/),
      },
    })
    expect(
      await e.management.createUser({
        headers: bearer(created.access_token),
        body: { user: { email: unique('x') } },
      }),
    ).toMatchObject({ status: 403, body: { error: 'Forbidden' } })
    expect((await user(e, email.toUpperCase())).res).toMatchObject({
      status: 422,
      body: { errors: ['email has already been taken'] },
    })
  })

  it('projects are visible to their owner, members and administrators only', async () => {
    const e = engine()
    const owner = await user(e, unique('owner'))
    const stranger = await user(e, unique('stranger'))
    const memberEmail = unique('member')
    const member = await user(e, memberEmail)
    const created = await e.management.createProject({
      headers: bearer(owner.access_token),
      body: { project: { name: 'Shop', integration_kind: 'ruby' } },
    })
    expect(created).toMatchObject({
      status: 201,
      body: { project: { name: 'Shop', integration_kind: 'ruby', status: 'active' } },
    })
    const id = (created.body as { project: { id: string } }).project.id
    expect(
      (await e.management.getProject({ headers: bearer(stranger.access_token), params: { id } }))
        .status,
    ).toBe(404)
    expect(
      (
        await e.management.addMember({
          headers: bearer(stranger.access_token),
          params: { id },
          body: { member: { email: memberEmail } },
        })
      ).status,
    ).toBe(404)
    expect(
      (
        await e.management.addMember({
          headers: bearer(owner.access_token),
          params: { id },
          body: { member: { email: memberEmail } },
        })
      ).status,
    ).toBe(201)
    expect(
      (await e.management.getProject({ headers: bearer(member.access_token), params: { id } }))
        .status,
    ).toBe(200)
    expect(
      (await e.management.archiveProject({ headers: bearer(member.access_token), params: { id } }))
        .status,
    ).toBe(403)
    const list = await e.management.listProjects({ headers: bearer(member.access_token) })
    expect((list.body as { projects: Array<{ id: string }> }).projects.map((p) => p.id)).toEqual([
      id,
    ])
    const all = await e.management.listProjects({ headers: admin })
    expect((all.body as { projects: Array<{ id: string }> }).projects.map((p) => p.id)).toContain(
      id,
    )
  })

  it.each([
    ['no token', {}, 401],
    ['a project API key', null, 401],
  ])('401 for %s', async (_rule, headers, status) => {
    const e = engine()
    const { token } = await newProject(e)
    expect((await e.management.listProjects({ headers: headers ?? bearer(token) })).status).toBe(
      status,
    )
  })

  it.each([
    ['a malformed project id', 'not-a-uuid'],
    ['an unknown project id', '01890000-0000-7000-8000-000000000000'],
  ])('404 for %s', async (_rule, id) => {
    const e = engine()
    expect(await e.management.getProject({ headers: admin, params: { id } })).toEqual({
      status: 404,
      headers: {},
      body: { error: 'Not found' },
    })
  })

  it('422 for an invalid project; 400 for a missing envelope', async () => {
    const e = engine()
    expect(
      await e.management.createProject({
        headers: admin,
        body: { project: { name: '', integration_kind: 'cobol' } },
      }),
    ).toMatchObject({
      status: 422,
      body: {
        errors: [
          "name can't be blank",
          'integration_kind is not included in the list (javascript, node, python, ruby, dotnet, cfml, android, ios, http_api)',
        ],
      },
    })
    expect(await e.management.createProject({ headers: admin, body: {} })).toMatchObject({
      status: 400,
      body: {
        error:
          'param is missing or the value is empty: project (the request body has no "project" object)',
      },
    })
  })

  it('lists keys without their tokens; revoking an unknown key is 404', async () => {
    const e = engine()
    const { id } = await newProject(e)
    const list = await e.management.listApiKeys({ headers: admin, params: { id } })
    expect(JSON.stringify(list.body)).not.toMatch(/tis_[0-9a-f]{48}/)
    expect((list.body as { api_keys: unknown[] }).api_keys).toHaveLength(1)
    expect(
      (
        await e.management.revokeApiKey({
          headers: admin,
          params: { id, key_id: '01890000-0000-7000-8000-000000000000' },
        })
      ).status,
    ).toBe(404)
  })
})

describe('bootstrap', () => {
  it('creates the first administrator once, on an empty store only', async () => {
    const fresh = await openTestEngine()
    const empty = fresh.store
    try {
      const first = await bootstrapAdmin(empty, { adminEmails: [] })
      expect(first).toMatchObject({
        action: 'first-run',
        email: 'admin@localhost',
        token: expect.stringMatching(/^tis_user_/),
      })
      expect(await bootstrapAdmin(empty, { adminEmails: [] })).toEqual({ action: 'none' })
      const e = fresh.engine
      const token = first.action === 'first-run' ? first.token : ''
      expect(
        (
          await e.management.createUser({
            headers: bearer(token),
            body: { user: { email: 'x@y.z' } },
          })
        ).status,
      ).toBe(201)
    } finally {
      await fresh.close()
    }
  }, 60_000)
})
