// The projection thread of `node dist/main.js` on real PostgreSQL (SERVICE_PROJECTION_THREAD):
// the server projects over connections of its own thread, reads see their writes at once, a
// graceful stop leaves the read model complete; `false` projects on the request thread. The
// SIGKILL test (crash.e2e.test.ts) runs with the thread too: it is the default.
import { randomBytes, randomUUID } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describeWithTestDatabase } from '@tis/test-utils/postgres-suite'
import {
  ADMIN_TOKEN,
  createClient,
  type ServerProcess,
  SPAWNED_SERVER_ENV,
  startServerProcess,
} from '@tis/test-utils/server'
import postgres from 'postgres'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { PROJECTION_THREAD_APPLICATION } from '../src/projection-thread'

const ENV = SPAWNED_SERVER_ENV

describeWithTestDatabase('the projection thread (PostgreSQL)', (baseUrl) => {
  // A database of its own: its connections are this test's alone in pg_stat_activity.
  const database = `tis_thread_${randomBytes(6).toString('hex')}`
  const admin = postgres(baseUrl, { max: 1, onnotice: () => {} })
  const url = new URL(baseUrl)
  url.pathname = `/${database}`
  let dir = ''
  const running: ServerProcess[] = []
  beforeAll(async () => {
    await admin.unsafe(`create database ${database}`)
    dir = await mkdtemp(join(tmpdir(), 'tis-thread-'))
  })
  afterAll(async () => {
    for (const server of running) server.kill('SIGKILL')
    await admin.unsafe(`drop database if exists ${database} with (force)`)
    await admin.end()
    await rm(dir, { recursive: true, force: true })
  })

  const threadConnections = async () => {
    const [row] = await admin<Array<{ n: number }>>`
      select count(*)::int as n from pg_stat_activity
      where datname = ${database} and application_name = ${PROJECTION_THREAD_APPLICATION}`
    return row?.n ?? 0
  }

  async function start(env: Record<string, string>) {
    const server = startServerProcess({ ...ENV, DATABASE_URL: url.toString(), ...env }, dir)
    running.push(server)
    const [line, address] = await server.waitFor(/"msg":"listening","url":"([^"]+)".*/, 60_000)
    const http = createClient(address!)
    const { projectId, key } = await http.projectWithKey()
    return { server, line: line!, http, projectId, key }
  }

  it('projects in its own thread; reads see every acknowledged write; a stop drains', async () => {
    const { server, line, http, projectId, key } = await start({})
    expect(line).toContain('"projection":"thread"')
    const lines = Array.from({ length: 500 }, (_, i) =>
      JSON.stringify({
        event: {
          event_id: randomUUID(),
          event_type: 'error',
          message: `threaded ${i}`,
          fingerprint: 't',
        },
      }),
    )
    const batch = await http.api('POST', '/api/v1/ingest_events/batch', {
      apiKey: key,
      text: lines.join('\n'),
      headers: { 'Content-Type': 'application/x-ndjson' },
    })
    expect(batch.status).toBe(202)
    // The read waits for the thread's round and is woken by it: all 500, no lag header.
    const issues = await http.api('GET', `/api/v1/projects/${projectId}/issues`, {
      token: ADMIN_TOKEN,
    })
    expect(issues.headers.get('x-tis-projection-lag')).toBeNull()
    expect(issues.body.issues.map((i: { count: number }) => i.count)).toEqual([500])
    expect(await threadConnections()).toBeGreaterThanOrEqual(1)

    // Acknowledged, then stopped at once: the thread projects it before the server exits.
    const last = await http.ingest('/api/v1/ingest_events', key, {
      event: { event_type: 'error', message: 'just before the stop', fingerprint: 't' },
    })
    expect(last.status).toBe(201)
    server.kill('SIGTERM')
    expect(await server.exited).toBe(0)
    expect(server.output.stdout).toContain('"msg":"stopped"')
    const own = postgres(url.toString(), { max: 1, onnotice: () => {} })
    try {
      const [issue] = await own<Array<{ count: number }>>`
        select count::int as count from issues where project_id = ${projectId}`
      expect(issue?.count).toBe(501)
    } finally {
      await own.end()
    }
    expect(await threadConnections()).toBe(0)
  })

  it('projects on the request thread with SERVICE_PROJECTION_THREAD=false', async () => {
    const { server, line, http, projectId, key } = await start({
      SERVICE_PROJECTION_THREAD: 'false',
    })
    expect(line).toContain('"projection":"request thread"')
    const sent = await http.ingest('/api/v1/ingest_events', key, {
      event: { event_type: 'error', message: 'unthreaded', fingerprint: 'u' },
    })
    const read = await http.api('GET', `/api/v1/projects/${projectId}/events/${sent.body.id}`, {
      token: ADMIN_TOKEN,
    })
    expect(read.status).toBe(200)
    expect(await threadConnections()).toBe(0)
    server.kill('SIGTERM')
    expect(await server.exited).toBe(0)
  })
})
