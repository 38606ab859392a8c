import { PGlite } from '@electric-sql/pglite'
import { createPgliteStore } from '@tis/storage-postgres'
import { githubFixture } from '@tis/test-utils/github-fixtures'
import { ADMIN_TOKEN, createClient, SUITE_ENV, unique } from '@tis/test-utils/server'
import { http } from 'msw'
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../src/config'
import { createLogger } from '../src/logger'
import { createServer, type TisServer } from '../src/server'

// Source excerpts end to end: a real server on PGlite in this process, GitHub mocked at the HTTP
// boundary with msw (the server's own fetch calls are intercepted; calls to the server pass).

const GITHUB = 'https://api.github.test'
const SERVER_TOKEN = 'ghp_SERVERtoken000000000000000000000001'
const PROJECT_TOKEN = 'github_pat_PROJECTtoken_0000000000000000000002'
const SECRET_KEY = 'e2e-secret-key-0123456789abcdef0123456789'
const SHA_V1 = '1111111111111111111111111111111111111111'
const SHA_V2 = '2222222222222222222222222222222222222222'

/** The file at each commit: line n reads `v1 line n` / `v2 line n`. */
const fileAt = (version: string) =>
  `${Array.from({ length: 30 }, (_, i) => `${version} line ${i + 1}`).join('\n')}\n`

const seen: Request[] = []
const github = setupServer(
  http.get(`${GITHUB}/repos/:owner/:repo/contents/*`, ({ request, params }) => {
    seen.push(request)
    const ref = new URL(request.url).searchParams.get('ref')
    const path = (params['0'] as string | undefined) ?? ''
    if (path.endsWith('missing.ts')) return githubFixture('not-found-404')
    if (ref === SHA_V1) return githubFixture('raw-200', { body: fileAt('v1') })
    if (ref === SHA_V2) return githubFixture('raw-200', { body: fileAt('v2') })
    return githubFixture('not-found-404')
  }),
)

let db: PGlite
let server: TisServer
let url: string
const logLines: string[] = []

beforeAll(async () => {
  github.listen({
    onUnhandledRequest: (request, print) => {
      if (new URL(request.url).hostname !== '127.0.0.1') print.error()
    },
  })
  db = await PGlite.create()
  const store = createPgliteStore(db)
  await store.migrate()
  const config = loadConfig({
    ...SUITE_ENV,
    SERVICE_SECRET_KEY: SECRET_KEY,
    SERVICE_GITHUB_TOKEN: SERVER_TOKEN,
    SERVICE_GITHUB_API_URL: GITHUB,
  })
  const logger = createLogger({ level: 'debug', write: (line) => logLines.push(line) })
  server = await createServer(config, { store, logger })
  url = (await server.listen()).url
}, 60_000)

afterAll(async () => {
  await server?.close()
  await db?.close()
  github.close()
})

/** A project with a key, its path prefix set to `/app`, and two recorded deployments. */
async function project() {
  const c = createClient(url)
  const { projectId, key } = await c.projectWithKey()
  const settings = await c.api('PUT', `/api/v1/projects/${projectId}/source_settings`, {
    token: ADMIN_TOKEN,
    json: { path_prefix: '/app' },
  })
  expect(settings.status).toBe(200)
  const repository = `octo/${unique('shop')}`
  for (const [release, sha, deployedAt] of [
    ['v1', SHA_V1, '2026-01-01T00:00:00Z'],
    ['v2', SHA_V2, '2026-01-02T00:00:00Z'],
  ]) {
    const r = await c.ingest('/api/v1/deployments', key, {
      deployment: {
        repository,
        environment: 'production',
        release,
        commit_sha: sha,
        deployed_at: deployedAt,
      },
    })
    expect(r.status).toBe(201)
  }
  return { c, projectId, key, repository }
}

async function errorEvent(
  c: ReturnType<typeof createClient>,
  key: string,
  fields: Record<string, unknown>,
  frames: unknown[],
) {
  const r = await c.ingest('/api/v1/ingest_events', key, {
    event: {
      event_type: 'error',
      message: 'boom',
      environment: 'production',
      occurred_at: '2026-01-03T00:00:00Z',
      context: { exception: { class: 'Error', message: 'boom', frames } },
      ...fields,
    },
  })
  expect(r.status).toBe(201)
  return r.body.id as string
}

const detail = (c: ReturnType<typeof createClient>, projectId: string, eventId: string) =>
  c.api('GET', `/api/v1/projects/${projectId}/events/${eventId}`, { token: ADMIN_TOKEN })

describe('source excerpts (end to end)', () => {
  it('shows the lines of the deployed commit, and serves a second read from the cache', async () => {
    const { c, projectId, key, repository } = await project()
    const eventId = await errorEvent(c, key, { release: 'v2' }, [
      { function: 'handler', filename: '/app/src/handler.ts', lineno: 12, colno: 3 },
      {
        function: 'dispatch',
        filename: '/app/node_modules/hono/dist/hono.js',
        lineno: 40,
        colno: 1,
      },
    ])
    const before = seen.length

    const first = await detail(c, projectId, eventId)
    expect(first.status).toBe(200)
    expect(first.body.source_commit).toEqual({ repository, commit_sha: SHA_V2, from: 'deployment' })
    const [app, dependency] = first.body.frames
    expect(app).toEqual({
      function: 'handler',
      filename: '/app/src/handler.ts',
      lineno: 12,
      colno: 3,
      in_app: true,
      source: {
        status: 'ok',
        repository,
        commit_sha: SHA_V2,
        path: 'src/handler.ts',
        line: 12,
        lines: [7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17].map((n) => ({
          number: n,
          text: `v2 line ${n}`,
        })),
        url: `https://github.test/${repository}/blob/${SHA_V2}/src/handler.ts#L12`,
      },
    })
    expect(dependency).toMatchObject({ in_app: false, source: { status: 'not_in_repository' } })
    const requests = seen.slice(before)
    expect(requests.map((r) => new URL(r.url).pathname)).toEqual([
      `/repos/${repository}/contents/src/handler.ts`,
    ])
    expect(new URL(requests[0]!.url).searchParams.get('ref')).toBe(SHA_V2)
    expect(requests[0]!.headers.get('authorization')).toBe(`Bearer ${SERVER_TOKEN}`)

    const second = await detail(c, projectId, eventId)
    expect(second.body.frames).toEqual(first.body.frames)
    expect(seen.length).toBe(before + 1)
    const cached = await db.query('select status from source_files where repository = $1', [
      repository,
    ])
    expect(cached.rows).toEqual([{ status: 'ok' }])
  })

  it("takes the event's own commit over the deployment, and caches not found briefly", async () => {
    const { c, projectId, key, repository } = await project()
    const eventId = await errorEvent(c, key, { release: 'v2', commit_sha: SHA_V1, repository }, [
      { filename: 'src/handler.ts', lineno: 2 },
      { filename: 'src/missing.ts', lineno: 2 },
    ])
    const before = seen.length
    const r = await detail(c, projectId, eventId)
    expect(r.body.source_commit).toMatchObject({ commit_sha: SHA_V1, from: 'event' })
    expect(r.body.frames[0].source).toMatchObject({
      status: 'ok',
      lines: [1, 2, 3, 4, 5, 6, 7].map((n) => ({ number: n, text: `v1 line ${n}` })),
    })
    expect(r.body.frames[1].source).toMatchObject({
      status: 'not_found',
      message: expect.stringMatching(/Not Found/),
    })
    await detail(c, projectId, eventId)
    expect(seen.length).toBe(before + 2)
  })

  it('says no_commit when there is neither a commit nor a deployment', async () => {
    const c = createClient(url)
    const { projectId, key } = await c.projectWithKey()
    const eventId = await errorEvent(c, key, { environment: 'staging' }, [
      { filename: 'src/a.ts', lineno: 1 },
    ])
    const r = await detail(c, projectId, eventId)
    expect(r.status).toBe(200)
    expect(r.body.source_commit).toBeNull()
    expect(r.body.frames[0].source.status).toBe('no_commit')
  })

  it("stores a project token encrypted, never shows it, and uses it for that project's files", async () => {
    const { c, projectId, key } = await project()
    const put = await c.api('PUT', `/api/v1/projects/${projectId}/source_settings`, {
      token: ADMIN_TOKEN,
      json: { source_settings: { github_token: PROJECT_TOKEN, context_lines: 1 } },
    })
    expect(put.status).toBe(200)
    expect(put.body.source_settings).toEqual({
      github_token_set: true,
      server_token_available: true,
      path_prefix: '/app/',
      context_lines: 1,
      github_api_url: null,
      effective_github_api_url: GITHUB,
      updated_at: expect.any(String),
    })
    const get = await c.api('GET', `/api/v1/projects/${projectId}/source_settings`, {
      token: ADMIN_TOKEN,
    })
    expect(get.body).toEqual(put.body)
    const [row] = (
      await db.query<{ github_token_sealed: string }>(
        'select github_token_sealed from project_source_settings where project_id = $1',
        [projectId],
      )
    ).rows
    expect(row!.github_token_sealed).toMatch(/^v1\./)
    expect(row!.github_token_sealed).not.toContain(PROJECT_TOKEN)

    const eventId = await errorEvent(c, key, { release: 'v1' }, [
      { filename: '/app/lib/util.ts', lineno: 5 },
    ])
    const before = seen.length
    const r = await detail(c, projectId, eventId)
    expect(r.body.frames[0].source).toMatchObject({
      status: 'ok',
      lines: [4, 5, 6].map((n) => ({ number: n, text: `v1 line ${n}` })),
    })
    expect(seen.slice(before).map((s) => s.headers.get('authorization'))).toEqual([
      `Bearer ${PROJECT_TOKEN}`,
    ])

    for (const text of [put.text, get.text, r.text, logLines.join('\n')]) {
      expect(text).not.toContain(PROJECT_TOKEN)
      expect(text).not.toContain(SERVER_TOKEN)
    }
    expect(logLines.length).toBeGreaterThan(0)
  })

  it('lets only the owner or an administrator change the settings, and validates them', async () => {
    const c = createClient(url)
    const owner = await c.createUser()
    const member = await c.createUser()
    const p = await c.createProject(owner.token)
    await c.api('POST', `/api/v1/projects/${p.id}/members`, {
      token: owner.token,
      json: { member: { email: member.email } },
    })
    const path = `/api/v1/projects/${p.id}/source_settings`
    expect((await c.api('GET', path, { token: member.token })).status).toBe(200)
    expect(
      (await c.api('PUT', path, { token: member.token, json: { context_lines: 3 } })).status,
    ).toBe(403)
    expect(
      (await c.api('PUT', path, { token: owner.token, json: { context_lines: 3 } })).status,
    ).toBe(200)
    expect((await c.api('PUT', path, { json: {} })).status).toBe(401)

    const bad = await c.api('PUT', path, {
      token: owner.token,
      json: { context_lines: 99, github_api_url: 'ftp://x', path_prefix: 5, colour: 'red' },
    })
    expect(bad.status).toBe(422)
    expect(bad.body.errors).toEqual([
      expect.stringMatching(/^colour is not a source setting/),
      expect.stringMatching(/^path_prefix must be/),
      expect.stringMatching(/^context_lines must be an integer from 0 to 50/),
      expect.stringMatching(/^github_api_url must be/),
    ])
    expect((await c.api('PUT', path, { token: owner.token, text: '{' })).status).toBe(400)
    expect(
      (await c.api('GET', path, { token: owner.token })).body.source_settings.context_lines,
    ).toBe(3)
  })

  it('refuses to store a token without SERVICE_SECRET_KEY, naming the variable', async () => {
    const { c, projectId, key } = await project()
    await c.api('PUT', `/api/v1/projects/${projectId}/source_settings`, {
      token: ADMIN_TOKEN,
      json: { github_token: PROJECT_TOKEN },
    })
    const eventId = await errorEvent(c, key, { release: 'v2' }, [
      { filename: '/app/src/x.ts', lineno: 1 },
    ])
    // A second server on the same database, configured without a secret key.
    const store = createPgliteStore(db)
    const bare = await createServer(loadConfig({ ...SUITE_ENV, SERVICE_GITHUB_API_URL: GITHUB }), {
      store,
    })
    try {
      const other = createClient((await bare.listen()).url)
      const r = await other.api('PUT', `/api/v1/projects/${projectId}/source_settings`, {
        token: ADMIN_TOKEN,
        json: { github_token: 'ghp_another' },
      })
      expect(r.status).toBe(422)
      expect(r.body.errors[0]).toMatch(/SERVICE_SECRET_KEY/)
      const read = await other.api('GET', `/api/v1/projects/${projectId}/events/${eventId}`, {
        token: ADMIN_TOKEN,
      })
      expect(read.status).toBe(200)
      expect(read.body.frames[0].source).toMatchObject({
        status: 'not_configured',
        message: expect.stringMatching(/SERVICE_SECRET_KEY/),
      })
    } finally {
      await bare.close()
    }
  })

  it('answers rate_limited per frame without failing the event', async () => {
    const { c, projectId, key, repository } = await project()
    const reset = String(Math.floor(Date.now() / 1000) + 3600)
    github.use(
      http.get(`${GITHUB}/repos/${repository}/contents/*`, () =>
        githubFixture('rate-limited-403', { headers: { 'x-ratelimit-reset': reset } }),
      ),
    )
    // A token of its own, so the limit does not stop the other tests' server token.
    await c.api('PUT', `/api/v1/projects/${projectId}/source_settings`, {
      token: ADMIN_TOKEN,
      json: { github_token: 'ghp_limited0000000000000000000000000000' },
    })
    const eventId = await errorEvent(c, key, { release: 'v2' }, [
      { filename: '/app/src/a.ts', lineno: 1 },
      { filename: '/app/src/b.ts', lineno: 1 },
    ])
    const r = await detail(c, projectId, eventId)
    expect(r.status).toBe(200)
    expect(r.body.frames.map((f: { source: { status: string } }) => f.source.status)).toEqual([
      'rate_limited',
      'rate_limited',
    ])
  })
})
