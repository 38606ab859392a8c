import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describeWithTestDatabase } from '@tis/test-utils/postgres-suite'
import postgres from 'postgres'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createClient } from './support/client'
import { ADMIN_TOKEN, SUITE_ENV } from './support/harness'
import { type ServerProcess, startServerProcess } from './support/spawn'

const CAP = 20
const REQUESTS = 90

// Section 8 across instances: three server processes on one PostgreSQL, one credential, its
// requests spread over the three at once. Exactly CAP are accepted in the window, the rest 429.
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
    const [row] = await sql<{ n: number }[]>`
      select count(*)::int as n from events where project_id = ${project.id}`
    expect(row?.n).toBe(CAP)
  }, 60_000)
})
