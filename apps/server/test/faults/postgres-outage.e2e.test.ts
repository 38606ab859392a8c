// Fault: PostgreSQL stops for 10 s while clients keep sending events. Every request is answered
// quickly — 201, or 503 with Retry-After while the database is down — the server recovers on its
// own when PostgreSQL is back, and every 201 (before, during, after) is stored exactly once.
// The server runs as a child process on its own embedded PostgreSQL, the one server a test can
// stop and start again on the same data directory and port.
import { randomBytes, randomUUID } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startTestPostgres, type TestPostgres } from '@tis/test-utils/postgres'
import { describeWithTestDatabase } from '@tis/test-utils/postgres-suite'
import {
  ADMIN_TOKEN,
  createClient,
  projected,
  type ServerProcess,
  SPAWNED_SERVER_ENV,
  startServerProcess,
} from '@tis/test-utils/server'
import postgres from 'postgres'
import { afterAll, beforeAll, expect, it } from 'vitest'

const WORKERS = 48
const OUTAGE_MS = 10_000
/** "Fast": well under any client's patience. */
const FAST_MS = 3_000

interface Attempt {
  readonly message: string
  readonly path: 'single' | 'batch'
  readonly started: number
  readonly ms: number
  /** HTTP status, or `hang` when no answer came within 10 s, or `error` for a network error. */
  readonly status: number | 'hang' | 'error'
  readonly retryAfter: string | null
  /** The stored event's id of a 201. */
  readonly id?: string
}

describeWithTestDatabase('fault: PostgreSQL stopped for 10 s during load', () => {
  let pg: TestPostgres
  let server: ServerProcess
  let dir: string
  let url = ''

  beforeAll(async () => {
    // Our own embedded server even when TEST_DATABASE_URL is set: only it can be paused.
    pg = await startTestPostgres({ embedded: true })
    dir = await mkdtemp(join(tmpdir(), 'tis-pg-outage-'))
    server = startServerProcess(
      {
        ...SPAWNED_SERVER_ENV,
        DATABASE_URL: pg.url,
      },
      dir,
    )
    const [, listening] = await server.waitFor(/"msg":"listening","url":"([^"]+)"/, 60_000)
    url = listening!
  }, 60_000)

  afterAll(async () => {
    server?.kill('SIGKILL')
    await server?.exited
    await pg?.stop()
    if (dir) await rm(dir, { recursive: true, force: true })
  }, 60_000)

  it('answers 201 or a fast 503 with Retry-After, recovers alone, and stores every 201 once', {
    timeout: 90_000,
  }, async () => {
    const c = createClient(url)
    const project = await c.createProject(ADMIN_TOKEN)
    const key = await c.createKey(project.id, ADMIN_TOKEN)
    const attempts: Attempt[] = []
    let stopping = false

    const send = async (w: number, n: number): Promise<Attempt> => {
      const message = `outage ${w}-${n}-${randomBytes(3).toString('hex')}`
      const path = n % 4 === 3 ? 'batch' : 'single'
      const event = { event_type: 'error', message, fingerprint: `w${w % 3}` }
      const started = performance.now()
      const base = { message, path, started } as const
      try {
        const res = await fetch(`${url}/api/v1/ingest_events${path === 'batch' ? '/batch' : ''}`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${key.token}`,
            'content-type': path === 'batch' ? 'application/x-ndjson' : 'application/json',
          },
          body:
            path === 'batch'
              ? `${JSON.stringify({ event: { ...event, event_id: randomUUID() } })}\n`
              : JSON.stringify({ event }),
          signal: AbortSignal.timeout(10_000),
        })
        const text = await res.text()
        const ms = performance.now() - started
        const retryAfter = res.headers.get('retry-after')
        let status = res.status
        let id: string | undefined
        if (status === 201 || status === 200) id = JSON.parse(text).id
        if (status === 202 && path === 'batch') {
          // The batch's one line, stored: counted as that line's 201.
          const [line] = JSON.parse(text).results as Array<{ status: string; id?: string }>
          status = line?.status === 'accepted' ? 201 : 500
          id = line?.id
        }
        return { ...base, ms, status, retryAfter, ...(id ? { id } : {}) }
      } catch (error) {
        const hang = error instanceof Error && error.name === 'TimeoutError'
        return {
          ...base,
          ms: performance.now() - started,
          status: hang ? 'hang' : 'error',
          retryAfter: null,
        }
      }
    }

    const worker = async (w: number) => {
      for (let n = 0; !stopping; n++) {
        const attempt = await send(w, n)
        attempts.push(attempt)
        // A real client backs off after a 503 (not for the full Retry-After: the test wants
        // to see many requests during the outage).
        if (attempt.status !== 201) await sleep(100)
      }
    }

    const t0 = performance.now()
    const loops = Array.from({ length: WORKERS }, (_, w) => worker(w))
    await sleep(2_000)
    await pg.pause()
    const pauseAt = performance.now()
    // Past the readiness answer's 1 s reuse: the probes see the outage.
    await sleep(3_000)
    const probes = await Promise.all([probe(`${url}/health/ready`), probe(`${url}/health`)])
    await sleep(Math.max(0, pauseAt + OUTAGE_MS - performance.now()))
    const resumeAt = performance.now()
    await pg.resume()
    const resumed = performance.now()
    // Recovery without a restart: new requests get 201 again, soon.
    const recoveredBy = resumed + 15_000
    let recovered: number | undefined
    while (performance.now() < recoveredBy) {
      const late = attempts.filter((a) => a.started > resumed && a.status === 201)
      if (late.length >= 50) {
        recovered = late[0]!.started
        break
      }
      await sleep(100)
    }
    await sleep(1_000)
    stopping = true
    await Promise.all(loops)

    const statuses = count(attempts.map((a) => String(a.status)))
    const during = attempts.filter((a) => a.started > pauseAt && a.started < resumeAt)
    const slowest = attempts.reduce((a, b) => (b.ms > a.ms ? b : a))
    console.info(
      `postgres outage: ${attempts.length} requests in ${Math.round(performance.now() - t0)} ms`,
      statuses,
      `during: ${JSON.stringify(count(during.map((a) => String(a.status))))}`,
      `slowest ${Math.round(slowest.ms)} ms (${slowest.status}, sent ${Math.round(slowest.started - pauseAt)} ms after the stop); 201 again ${recovered === undefined ? 'never' : `${Math.round(recovered - resumed)} ms`} after PostgreSQL was back`,
    )

    expect(server.output.stderr, 'the server wrote to stderr (crashed?)').toBe('')
    const [ready, live] = probes
    expect(ready, 'readiness during the outage: 503 with Retry-After').toMatchObject({
      status: 503,
      retryAfter: '5',
      body: { status: 'unavailable', store: 'unreachable' },
    })
    expect(ready.ms, 'readiness answers within its 2 s timeout').toBeLessThan(FAST_MS)
    expect(live, 'liveness during the outage').toMatchObject({
      status: 200,
      body: { status: 'ok' },
    })
    const unexpected = server.output.stdout.split('\n').filter((l) => l.includes('unhandled error'))
    expect(unexpected.slice(0, 3), 'unexpected errors logged').toEqual([])
    expect(recovered, 'new requests get 201 again after PostgreSQL is back').toBeDefined()
    expect(Object.keys(statuses).sort(), 'only 201 and 503').toEqual(['201', '503'])
    expect(during.length).toBeGreaterThan(50)
    // Sent during the outage, some wait a moment and are answered once PostgreSQL is back.
    expect(
      during.filter((a) => a.status === 201 && a.started + a.ms < resumeAt),
      'no 201 answered while PostgreSQL is down',
    ).toEqual([])
    const unavailable = attempts.filter((a) => a.status === 503)
    expect(
      unavailable.filter((a) => a.path === 'single' && a.retryAfter !== '5'),
      'every 503 carries Retry-After',
    ).toEqual([])
    expect(
      attempts.filter((a) => a.ms >= FAST_MS).map((a) => [a.status, Math.round(a.ms)]),
      'every request answered fast',
    ).toEqual([])

    // Every 201 is stored exactly once; nothing is stored that was not sent.
    await projected(url)
    const sql = postgres(pg.url, { max: 1, onnotice: () => {} })
    try {
      const rows = await sql<Array<{ id: string; message: string }>>`
        select id::text as id, message from events where project_id = ${project.id}`
      const stored = new Map(rows.map((r) => [r.id, r.message]))
      const acked = attempts.filter((a) => a.status === 201)
      expect(acked.filter((a) => stored.get(a.id!) !== a.message)).toEqual([])
      const messages = rows.map((r) => r.message)
      expect(new Set(messages).size, 'an event stored twice').toBe(messages.length)
      const sent = new Set(attempts.map((a) => a.message))
      expect(messages.filter((m) => !sent.has(m))).toEqual([])
    } finally {
      await sql.end()
    }
    expect(await fetch(`${url}/health`).then((r) => r.status)).toBe(200)
    expect(await probe(`${url}/health/ready`)).toMatchObject({
      status: 200,
      body: { status: 'ok', store: 'ok' },
    })
  })

  it('answers 503 and survives when PostgreSQL stops under an open transaction', {
    timeout: 60_000,
  }, async () => {
    // Runs after the first test: PostgreSQL is up again.
    const c = createClient(url)
    const project = await c.createProject(ADMIN_TOKEN)
    const key = await c.createKey(project.id, ADMIN_TOKEN)
    // Hold a lock so the server's write transaction is open, its INSERT in flight, when
    // PostgreSQL stops (postgres.js 3.4.9 used to crash the process on this: see
    // storage-postgres/src/postgres-executor.ts).
    const locker = postgres(pg.url, { max: 1, onnotice: () => {} })
    // Acceptance writes the ingest log (the read model is projected behind it).
    await locker.unsafe('begin; lock table ingest_log in access exclusive mode').simple()
    const ingest = (message: string) =>
      fetch(`${url}/api/v1/ingest_events`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ event: { event_type: 'log', message } }),
        signal: AbortSignal.timeout(10_000),
      })
    let settled = false
    const pending = ingest('under the lock').finally(() => {
      settled = true
    })
    await sleep(500)
    expect(settled, 'the request waits for the lock').toBe(false)
    const stoppedAt = performance.now()
    await pg.pause()
    const res = await pending
    expect(performance.now() - stoppedAt).toBeLessThan(FAST_MS)
    // A fast shutdown ends every backend, the locker's among them; now and then the lock is gone
    // before the server's own backend is ended and its insert commits first. Then the 201 is the
    // truth, and the event must be stored once; otherwise the answer is a fast 503.
    expect([201, 503]).toContain(res.status)
    if (res.status === 503) expect(res.headers.get('retry-after')).toBe('5')
    await pg.resume()
    await locker.end({ timeout: 0 })
    if (res.status === 201) {
      const { id } = (await res.json()) as { id: string }
      // What the server (and its projection thread) logged, should the projection not catch up.
      await projected(url).catch((error: unknown) => {
        console.error(server.output.stdout.slice(-8_000))
        throw error
      })
      const sql = postgres(pg.url, { max: 1, onnotice: () => {} })
      try {
        const rows = await sql.unsafe('select message from events where id = $1', [id])
        expect(rows.map((r) => r['message'])).toEqual(['under the lock'])
      } finally {
        await sql.end()
      }
    }
    let status = 0
    for (let i = 0; i < 50 && status !== 201; i++) {
      status = (await ingest(`after ${i}`)).status
      if (status !== 201) await sleep(100)
    }
    expect(status).toBe(201)
    expect(server.output.stderr, 'the server wrote to stderr (crashed?)').toBe('')
  })
})

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** One health probe: its status, `Retry-After`, JSON body and duration. */
async function probe(url: string) {
  const started = performance.now()
  const res = await fetch(url, { signal: AbortSignal.timeout(10_000) })
  const body: unknown = await res.json()
  return {
    status: res.status,
    retryAfter: res.headers.get('retry-after'),
    body,
    ms: performance.now() - started,
  }
}

function count(values: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const v of values) counts[v] = (counts[v] ?? 0) + 1
  return counts
}
