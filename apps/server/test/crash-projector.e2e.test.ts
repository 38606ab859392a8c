// Fault: a projector SIGKILLed in the middle of a round, on real PostgreSQL. The server only
// acknowledges (SERVICE_PROJECTION=worker); a `tis worker` process projects a backlog of 3,000
// records in rounds of 200 and is killed mid-stream. Its last round's writes vanish with its
// position (one transaction): what is projected is exactly what the position has passed. A new
// worker projects the rest: every record once, issue counts equal event counts.
import { randomUUID } from 'node:crypto'
import { describeWithTestDatabase } from '@tis/test-utils/postgres-suite'
import {
  createClient,
  type Harness,
  startPostgresHarness,
  startServerProcess,
} from '@tis/test-utils/server'
import { afterAll, beforeAll, expect, it } from 'vitest'

const RECORDS = 3_000
const LINES = 500

describeWithTestDatabase('crash: SIGKILL of a projector mid-round (PostgreSQL)', (baseUrl) => {
  let harness: Harness
  beforeAll(async () => {
    harness = await startPostgresHarness(baseUrl, {
      SERVICE_PROJECTION: 'worker',
      SERVICE_READ_BARRIER_MS: '0',
      SERVICE_PUBLIC_API_RATE_LIMIT_REQUESTS: '1000000',
    })
  })
  afterAll(() => harness?.close())

  /** Reads the tables directly, without waiting for a projection nobody runs in-process. */
  const sql = async <T>(text: string, params: unknown[] = []) => {
    const pg = await import('postgres')
    const db = pg.default(harness.databaseUrl!, { max: 1, onnotice: () => {} })
    try {
      return (await db.unsafe(text, params as never[])) as unknown as T[]
    } finally {
      await db.end()
    }
  }

  const worker = () =>
    startServerProcess(
      {
        DATABASE_URL: harness.databaseUrl!,
        SERVICE_LOG_LEVEL: 'info',
        SERVICE_PROJECTION_BATCH_SIZE: '200',
      },
      process.cwd(),
      { cli: ['worker'] },
    )

  it('loses and doubles nothing: a new worker projects the rest exactly once', {
    timeout: 180_000,
  }, async () => {
    const http = createClient(harness.url)
    const { projectId, key } = await http.projectWithKey()
    const ids = new Set<string>()
    for (let sent = 0; sent < RECORDS; sent += LINES) {
      const body = Array.from({ length: LINES }, (_, i) => {
        const id = randomUUID()
        ids.add(id)
        return JSON.stringify({
          event: {
            event_type: 'error',
            event_id: id,
            message: `m ${sent + i}`,
            fingerprint: `g${i % 7}`,
          },
        })
      }).join('\n')
      const res = await fetch(`${harness.url}/api/v1/ingest_events/batch`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/x-ndjson' },
        body,
      })
      expect(res.status).toBe(202)
      await res.body?.cancel()
    }
    const consumed = async () =>
      Number(
        (
          await sql<{ n: string }>(
            `select consumed as n from log_consumers where name = 'projection'`,
          )
        )[0]?.n ?? 0,
      )
    const before = await consumed()

    const first = worker()
    for (;;) {
      const done = (await consumed()) - before
      if (done > 0) break
      await new Promise((r) => setTimeout(r, 5))
    }
    first.kill('SIGKILL')
    expect(await first.exited).toBe('SIGKILL')
    const passed = (await consumed()) - before
    expect(passed, 'the kill came before the end of the backlog').toBeLessThan(RECORDS)
    const count = async () =>
      Number(
        (
          await sql<{ n: string }>('select count(*) as n from events where project_id = $1', [
            projectId,
          ])
        )[0]?.n,
      )
    expect(await count(), 'projected rows are exactly those the position passed').toBe(passed)

    const second = worker()
    await second.waitFor(/worker started/, 60_000)
    expect(await harness.server.engine.settled(60_000)).toBe(true)
    second.kill('SIGTERM')
    expect(await second.exited).toBe(0)

    const rows = await sql<{ id: string }>(
      'select id::text as id from events where project_id = $1',
      [projectId],
    )
    expect(rows).toHaveLength(RECORDS)
    expect(new Set(rows.map((r) => r.id))).toEqual(ids)
    const [issues] = await sql<{ n: number }>(
      'select sum(count)::int as n from issues where project_id = $1',
      [projectId],
    )
    expect(issues?.n).toBe(RECORDS)
  })
})
