// The crash test on PostgreSQL: SIGKILL the server in the middle of a stream of requests, restart
// it, and check that every request that got a 201 is in the store exactly once. The embedded
// store (PGlite dies with the process) has its own, in crash-embedded.e2e.test.ts: singles and
// batches, the whole process group killed, once per SERVICE_EMBEDDED_SYNC mode.
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describeWithTestDatabase } from '@tis/test-utils/postgres-suite'
import {
  ADMIN_TOKEN,
  createClient,
  projected,
  SPAWNED_SERVER_ENV,
  startServerProcess,
} from '@tis/test-utils/server'
import postgres from 'postgres'
import { expect, it } from 'vitest'

const ENV = SPAWNED_SERVER_ENV
const WORKERS = 24

interface Outcome {
  /** id → message of every request answered 201. */
  readonly acknowledged: Map<string, string>
  /** Messages sent, answered or not. */
  readonly sent: Set<string>
  readonly projectId: string
}

/** Streams events from WORKERS loops, SIGKILLs the server mid-stream, and reports what was acked. */
async function streamAndKill(env: Record<string, string>, cwd: string): Promise<Outcome> {
  const server = startServerProcess(env, cwd)
  const [, url] = await server.waitFor(/"msg":"listening","url":"([^"]+)"/, 60_000)
  const c = createClient(url!)
  const project = await c.createProject(ADMIN_TOKEN)
  const key = await c.createKey(project.id, ADMIN_TOKEN)
  const acknowledged = new Map<string, string>()
  const sent = new Set<string>()
  let killed = false
  const worker = async (w: number) => {
    for (let n = 0; !killed; n++) {
      const message = `crash ${w}-${n}-${randomBytes(3).toString('hex')}`
      sent.add(message)
      try {
        const res = await fetch(`${url}/api/v1/ingest_events`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            event: { event_type: 'error', message, fingerprint: `w${w % 3}` },
          }),
        })
        if (res.status === 201) acknowledged.set(((await res.json()) as { id: string }).id, message)
        else await res.body?.cancel()
      } catch {
        return // the server is gone: this request was never acknowledged
      }
    }
  }
  const loops = Array.from({ length: WORKERS }, (_, w) => worker(w))
  while (acknowledged.size < 300) await new Promise((r) => setTimeout(r, 20))
  server.kill('SIGKILL')
  killed = true
  expect(await server.exited).toBe('SIGKILL')
  await Promise.all(loops)
  return { acknowledged, sent, projectId: project.id }
}

/** Restarts the server on the same data and checks that it accepts again, then stops it. */
async function restartAndStop(env: Record<string, string>, cwd: string) {
  const server = startServerProcess(env, cwd)
  const [, url] = await server.waitFor(/"msg":"listening","url":"([^"]+)"/, 60_000)
  const c = createClient(url!)
  const project = await c.createProject(ADMIN_TOKEN)
  const key = await c.createKey(project.id, ADMIN_TOKEN)
  const after = await c.ingest('/api/v1/ingest_events', key.token, {
    event: { event_type: 'log', message: 'after the crash' },
  })
  expect(after.status).toBe(201)
  // The restarted server projects what the killed one acknowledged but had not projected.
  await projected(url!)
  server.kill('SIGTERM')
  expect(await server.exited).toBe(0)
}

function expectExactlyOnce(outcome: Outcome, rows: ReadonlyArray<{ id: string; message: string }>) {
  const stored = new Map(rows.map((r) => [r.id, r.message]))
  const missing = [...outcome.acknowledged].filter(([id, message]) => stored.get(id) !== message)
  expect(missing, 'acknowledged events missing after the crash').toEqual([])
  const messages = rows.map((r) => r.message)
  expect(new Set(messages).size, 'an event stored twice').toBe(messages.length)
  expect(
    messages.every((m) => outcome.sent.has(m)),
    'a row nobody sent',
  ).toBe(true)
  expect(outcome.acknowledged.size).toBeGreaterThanOrEqual(300)
}

describeWithTestDatabase('crash: SIGKILL during a stream of requests (PostgreSQL)', (baseUrl) => {
  it('keeps every acknowledged event exactly once', { timeout: 180_000 }, async () => {
    const schema = `tis_crash_${randomBytes(6).toString('hex')}`
    const admin = postgres(baseUrl, { max: 1, onnotice: () => {} })
    await admin.unsafe(`create schema ${schema}`)
    const url = new URL(baseUrl)
    url.searchParams.set('search_path', schema)
    const dir = await mkdtemp(join(tmpdir(), 'tis-crash-pg-'))
    try {
      const env = { ...ENV, DATABASE_URL: url.toString() }
      const outcome = await streamAndKill(env, dir)
      await restartAndStop(env, dir)
      const rows = await admin.unsafe<Array<{ id: string; message: string }>>(
        `select id::text as id, message from ${schema}.events where project_id = $1`,
        [outcome.projectId],
      )
      expectExactlyOnce(outcome, rows)
      // None projected twice: the issues count exactly the events stored.
      const [issues] = await admin.unsafe<Array<{ n: number }>>(
        `select coalesce(sum(count), 0)::int as n from ${schema}.issues where project_id = $1`,
        [outcome.projectId],
      )
      expect(issues?.n).toBe(rows.length)
    } finally {
      await admin.unsafe(`drop schema ${schema} cascade`)
      await admin.end()
      await rm(dir, { recursive: true, force: true })
    }
  })
})
