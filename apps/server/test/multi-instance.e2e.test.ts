import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describeWithTestDatabase } from '@tis/test-utils/postgres-suite'
import {
  ADMIN_TOKEN,
  createClient,
  openPage,
  projected,
  type ServerProcess,
  SUITE_ENV,
  serverFetcher,
  signIn,
  startServerProcess,
  submitForm,
} from '@tis/test-utils/server'
import postgres from 'postgres'
import { afterAll, beforeAll, expect, it } from 'vitest'

const CAP = 20
const REQUESTS = 90

// Section 8 across instances: three server processes on one PostgreSQL, one credential, its
// requests spread over the three at once. Exactly CAP are accepted in the window, the rest 429.
// Dashboard sessions (issue 18) live in the database too, so every instance shares them.
describeWithTestDatabase('three server processes on one PostgreSQL', (baseUrl) => {
  const schema = `tis_multi_${randomBytes(6).toString('hex')}`
  let admin: postgres.Sql
  let sql: postgres.Sql
  let dir: string
  const servers: ServerProcess[] = []
  const urls: string[] = []

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tis-multi-'))
    admin = postgres(baseUrl, { max: 1, onnotice: () => {} })
    await admin.unsafe(`create schema ${schema}`)
    const url = new URL(baseUrl)
    url.searchParams.set('search_path', schema)
    sql = postgres(url.toString(), { max: 1, onnotice: () => {} })
    const env = {
      ...SUITE_ENV,
      SERVICE_LOG_LEVEL: 'info',
      DATABASE_URL: url.toString(),
      SERVICE_PUBLIC_API_RATE_LIMIT_REQUESTS: String(CAP),
      SERVICE_PUBLIC_API_RATE_LIMIT_PERIOD_SECONDS: '86400',
    }
    // The first one migrates and bootstraps the administrator; then the other two join it.
    for (let i = 0; i < 3; i++) {
      const server = startServerProcess(env, dir)
      servers.push(server)
      const [, listening] = await server.waitFor(/"msg":"listening","url":"([^"]+)"/, 60_000)
      urls.push(listening!)
    }
  }, 180_000)

  afterAll(async () => {
    for (const server of servers) server.kill('SIGTERM')
    await Promise.all(servers.map((s) => s.exited))
    await sql?.end()
    await admin?.unsafe(`drop schema if exists ${schema} cascade`)
    await admin?.end()
    await rm(dir, { recursive: true, force: true })
  })

  it(`accepts exactly ${CAP} of ${REQUESTS} concurrent requests of one credential, stores exactly ${CAP}`, async () => {
    const c = createClient(urls[0]!)
    const project = await c.createProject(ADMIN_TOKEN)
    const key = await c.createKey(project.id)
    const event = { event: { event_type: 'log', message: 'spread' } }
    const replies = await Promise.all(
      Array.from({ length: REQUESTS }, (_, i) =>
        createClient(urls[i % 3]!).ingest('/api/v1/ingest_events', key.token, event),
      ),
    )
    const statuses = replies.map((r) => r.status)
    expect(statuses.filter((s) => s === 201)).toHaveLength(CAP)
    expect(statuses.filter((s) => s === 429)).toHaveLength(REQUESTS - CAP)
    // Every instance both accepted and refused, so no instance was counting alone.
    for (let i = 0; i < 3; i++) {
      const mine = statuses.filter((_, j) => j % 3 === i)
      expect(mine).toContain(429)
    }
    const remaining = replies
      .filter((r) => r.status === 201)
      .map((r) => Number(r.headers.get('x-ratelimit-remaining')))
    expect(remaining.sort((a, b) => a - b)).toEqual(Array.from({ length: CAP }, (_, i) => i))
    // The table is read directly, not through the read barrier: wait for the projection (one
    // position for the three instances) to pass every acknowledged event.
    await projected(urls[0]!)
    const [row] = await sql<{ n: number }[]>`
      select count(*)::int as n from events where project_id = ${project.id}`
    expect(row?.n).toBe(CAP)
  }, 60_000)

  it('shares dashboard sessions: signed in on one instance, used on another, signed out on a third', async () => {
    const user = await createClient(urls[0]!).createUser()
    const at = (i: number) => serverFetcher(urls[i]!)
    const browser = await signIn(at(0), user.token)
    for (const i of [0, 1, 2])
      expect((await openPage(at(i), '/projects', browser)).status).toBe(200)
    const out = await submitForm(at(2), '/logout', browser)
    expect(out.status).toBe(303)
    for (const i of [0, 1]) {
      const refused = await openPage(at(i), '/projects', browser)
      expect(refused).toMatchObject({ status: 303, location: '/login' })
    }
  }, 60_000)

  it('ends sessions and the old access token on every instance at once (sign out everywhere, rotation)', async () => {
    const user = await createClient(urls[0]!).createUser()
    const at = (i: number) => serverFetcher(urls[i]!)
    const first = await signIn(at(0), user.token)
    const ended = await createClient(urls[1]!).api('DELETE', '/api/v1/users/me/sessions', {
      token: user.token,
    })
    expect(ended.body).toEqual({ sessions_ended: 1 })
    expect((await openPage(at(2), '/projects', first)).status).toBe(303)
    const second = await signIn(at(2), user.token)
    const rotated = await createClient(urls[0]!).api('POST', '/api/v1/users/me/token', {
      token: user.token,
    })
    expect(rotated.status).toBe(201)
    const projects = (i: number, token: string) =>
      createClient(urls[i]!).api('GET', '/api/v1/projects', { token })
    for (const i of [0, 1, 2]) {
      expect((await projects(i, user.token)).status).toBe(401)
      expect((await projects(i, rotated.body.access_token)).status).toBe(200)
      expect((await openPage(at(i), '/projects', second)).status).toBe(303)
    }
  }, 60_000)
})
