// The embedded store under a crash: the real server on PGlite, run as `pnpm start` runs it (a
// parent process and the server, in a process group of their own), takes single events and
// batches from concurrent clients and is SIGKILLed with its whole group mid-stream. Restarted on
// the same data directory, it must serve every event it acknowledged — each 201 and every line of
// each accepted batch — exactly once, through the read API. Once per SERVICE_EMBEDDED_SYNC mode.
// (crash.e2e.test.ts does the same to a server on PostgreSQL.)
import { cp, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  ADMIN_TOKEN,
  call,
  createClient,
  projected,
  type ServerProcess,
  SPAWNED_SERVER_ENV,
  startServerProcess,
} from '@tis/test-utils/server'
import { migratedTemplate } from '@tis/test-utils/tis-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Acknowledged, startIngestLoad } from './support/crash-load'

const ENV = SPAWNED_SERVER_ENV
const LOAD = { singleWorkers: 16, batchWorkers: 2, batchSize: 20 }
/** Acknowledgements to collect before the kill: singles, and lines of accepted batches. */
const BEFORE_KILL = { singles: 200, batchLines: 3 * LOAD.batchSize }
const LISTENING =
  /"msg":"listening","url":"([^"]+)"(?:,"database":"pglite","embedded_sync":"(\w+)")?/

/** Starts the server in its own process group; resolves it, its URL and its sync mode. */
async function start(env: Record<string, string>, cwd: string) {
  const server = startServerProcess(env, cwd, { group: true })
  const [, url, sync] = await server.waitFor(LISTENING, 90_000)
  return { server, url: url!, sync }
}

/** Resolves once no process of the server's group is left (at most `ms`: zombies linger). */
async function groupGone(server: ServerProcess, ms = 5_000): Promise<void> {
  if (server.pid === undefined) return
  for (const deadline = Date.now() + ms; Date.now() < deadline; ) {
    try {
      process.kill(-server.pid, 0)
    } catch {
      return
    }
    await new Promise((r) => setTimeout(r, 20))
  }
}

/** Resolves once {@link BEFORE_KILL} is reached; fails after a minute. */
async function enoughAcknowledged(acked: Acknowledged): Promise<void> {
  const enough = () =>
    acked.singles.size >= BEFORE_KILL.singles && acked.batchLines.size >= BEFORE_KILL.batchLines
  for (const deadline = Date.now() + 60_000; !enough(); ) {
    if (Date.now() > deadline) {
      throw new Error(
        `acknowledged in 60 s: ${acked.singles.size} singles, ${acked.batchLines.size} lines`,
      )
    }
    await new Promise((r) => setTimeout(r, 10))
  }
}

/** Every event of the project, through the read API (newest first, all pages). */
async function readAllEvents(url: string, projectId: string) {
  const events: Array<{ id: string; message: string }> = []
  for (let cursor: string | null = ''; cursor !== null; ) {
    const page = await call(url, 'GET', `/api/v1/projects/${projectId}/events?limit=200${cursor}`, {
      token: ADMIN_TOKEN,
    })
    expect(page.status, page.text).toBe(200)
    events.push(...page.body.events)
    cursor = page.body.next_cursor ? `&cursor=${page.body.next_cursor}` : null
  }
  return events
}

function expectEveryAcknowledgedEventOnce(
  acked: Acknowledged,
  stored: readonly { id: string; message: string }[],
) {
  const byId = new Map(stored.map((e) => [e.id, e.message]))
  const missing = [...acked.singles, ...acked.batchLines].filter(([id, m]) => byId.get(id) !== m)
  expect(missing, 'acknowledged events missing after the restart').toEqual([])
  const messages = stored.map((e) => e.message)
  expect(new Set(messages).size, 'an event stored twice').toBe(messages.length)
  expect(
    messages.filter((m) => !acked.sent.has(m)),
    'events nobody sent',
  ).toEqual([])
}

describe.each([
  ['commit', {}],
  ['off', { SERVICE_EMBEDDED_SYNC: 'off' }],
])('crash: SIGKILL of the embedded server and its process group (sync %s)', (mode, modeEnv) => {
  let dir: string
  const servers: ServerProcess[] = []
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tis-crash-embedded-'))
    // A copy of a migrated database: creating one would take most of the test's time.
    await cp(await migratedTemplate(), join(dir, 'data'), { recursive: true })
  }, 120_000)
  afterAll(async () => {
    for (const s of servers) s.kill('SIGKILL')
    await rm(dir, { recursive: true, force: true })
  })

  it('serves every acknowledged single event and batch line exactly once after a restart', {
    timeout: 180_000,
  }, async () => {
    const env = { ...ENV, ...modeEnv, SERVICE_DATA_DIR: join(dir, 'data') }
    const first = await start(env, dir)
    servers.push(first.server)
    expect(first.sync, 'the mode the server runs in').toBe(mode)
    const { projectId, key } = await createClient(first.url).projectWithKey()

    const load = startIngestLoad(first.url, key, LOAD)
    const { acked } = load
    await enoughAcknowledged(acked)
    first.server.kill('SIGKILL')
    expect(await first.server.exited).toBe('SIGKILL')
    await load.stop()
    await groupGone(first.server)

    const second = await start(env, dir)
    servers.push(second.server)
    expect(second.sync).toBe(mode)
    // The restarted server projects what the killed one acknowledged but had not projected.
    await projected(second.url)
    const stored = await readAllEvents(second.url, projectId)
    expectEveryAcknowledgedEventOnce(acked, stored)
    // None projected twice: the issues count exactly the error events stored.
    const issues = await call(second.url, 'GET', `/api/v1/projects/${projectId}/issues?limit=100`, {
      token: ADMIN_TOKEN,
    })
    const counted = (issues.body.issues as Array<{ count: number }>).reduce(
      (n, i) => n + i.count,
      0,
    )
    expect(counted).toBe(
      stored.filter((e) => (e as { event_type?: string }).event_type === 'error').length,
    )
    const after = await createClient(second.url).ingest('/api/v1/ingest_events', key, {
      event: { event_type: 'log', message: 'after the crash' },
    })
    expect(after.status).toBe(201)
  })
})
