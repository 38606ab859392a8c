// Fault: a statement fails inside a write transaction (a trigger raises for marked records), on
// real PostgreSQL, while other requests share the group commit.
// - In acceptance (the ingest log): the failing record is answered with an error, its neighbours
//   are stored, no connection is left "idle in transaction (aborted)" holding locks, and the
//   server keeps answering afterwards — no hang.
// - In the projection (the events table): every record was acknowledged, so none is lost: the
//   failing one is set aside with its error in ingest_log_failures, its neighbours are projected,
//   and the projection goes on.
import { randomUUID } from 'node:crypto'
import { describeWithTestDatabase } from '@tis/test-utils/postgres-suite'
import {
  ADMIN_TOKEN,
  createClient,
  type Harness,
  type Reply,
  startPostgresHarness,
} from '@tis/test-utils/server'
import { afterAll, beforeAll, expect, it } from 'vitest'

const MARK = 'fail-inside-the-transaction'
const PROJECTION_MARK = 'fail-inside-the-projection'
/** No answer within this long counts as a hang. */
const HANG_MS = 10_000

describeWithTestDatabase('fault: a statement fails inside the write transaction', (url) => {
  let harness: Harness
  let key: string
  let projectId: string

  beforeAll(async () => {
    harness = await startPostgresHarness(url, { SERVICE_PUBLIC_API_RATE_LIMIT_REQUESTS: '100000' })
    const project = await createClient(harness.url).projectWithKey()
    key = project.key
    projectId = project.projectId
    await harness.query(`
      create function tis_test_fail_marked() returns trigger language plpgsql as $$
      begin
        if new.record::text like '%${MARK}%' then raise exception 'injected failure'; end if;
        return new;
      end $$`)
    await harness.query(`
      create trigger tis_test_fail_marked before insert on ingest_log
      for each row execute function tis_test_fail_marked()`)
    await harness.query(`
      create function tis_test_fail_projected() returns trigger language plpgsql as $$
      begin
        if new.message = '${PROJECTION_MARK}' then raise exception 'injected projection failure'; end if;
        return new;
      end $$`)
    await harness.query(`
      create trigger tis_test_fail_projected before insert on events
      for each row execute function tis_test_fail_projected()`)
  }, 60_000)
  afterAll(() => harness?.close())

  /** Sends one event; `hang` when no answer comes within {@link HANG_MS}. */
  async function send(message: string): Promise<Reply | 'hang'> {
    const reply = createClient(harness.url).ingest('/api/v1/ingest_events', key, {
      event: { event_type: 'error', message, event_id: randomUUID() },
    })
    const timeout = new Promise<'hang'>((resolve) => setTimeout(() => resolve('hang'), HANG_MS))
    return Promise.race([reply, timeout])
  }

  async function sendBatch(messages: string[]): Promise<Reply | 'hang'> {
    const body = messages
      .map((message) =>
        JSON.stringify({ event: { event_type: 'log', message, event_id: randomUUID() } }),
      )
      .join('\n')
    const reply = fetch(`${harness.url}/api/v1/ingest_events/batch`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/x-ndjson' },
      body,
    }).then(async (r) => ({ status: r.status, headers: r.headers, text: '', body: await r.json() }))
    const timeout = new Promise<'hang'>((resolve) => setTimeout(() => resolve('hang'), HANG_MS))
    return Promise.race([reply, timeout])
  }

  const status = (r: Reply | 'hang') => (r === 'hang' ? 'hang' : r.status)

  it('in acceptance: answers the failing record with an error, stores its neighbours and keeps serving', async () => {
    const messages = Array.from({ length: 30 }, (_, i) => (i % 6 === 0 ? MARK : `ok ${i}`))
    const replies = await Promise.all(messages.map(send))
    const statuses = replies.map(status)
    messages.forEach((message, i) => {
      if (message === MARK) expect(statuses[i], message).toBeGreaterThanOrEqual(500)
      else expect(statuses[i], message).toBe(201)
    })

    const batch = await sendBatch(['batch ok 1', MARK, 'batch ok 2'])
    // The batch's lines share one transaction: the failure fails the batch as a whole (500) and
    // writes none of it — no partial write.
    expect(status(batch)).toBe(500)
    const batchRows = await harness.query<{ n: number }>(
      `select count(*)::int as n from events where project_id = $1 and message like 'batch ok %'`,
      [projectId],
    )
    expect(batchRows[0]!.n).toBe(0)

    // Afterwards the server answers as before.
    const after = await Promise.all(Array.from({ length: 10 }, (_, i) => send(`after ${i}`)))
    expect(after.map(status)).toEqual(Array(10).fill(201))

    const stored = await harness.query<{ n: number }>(
      `select count(*)::int as n from events where project_id = $1 and message like 'ok %'`,
      [projectId],
    )
    expect(stored[0]!.n).toBe(messages.filter((m) => m !== MARK).length)
    const aborted = await harness.query<{ n: number }>(
      `select count(*)::int as n from pg_stat_activity
       where datname = current_database() and state = 'idle in transaction (aborted)'`,
    )
    expect(aborted[0]!.n).toBe(0)
    // The admin token still reads (the management pool is not blocked either).
    const read = await createClient(harness.url).api(
      'GET',
      `/api/v1/projects/${projectId}/events?limit=1`,
      { token: ADMIN_TOKEN },
    )
    expect(read.status).toBe(200)
  }, 60_000)

  it('in the projection: acknowledges all, sets the failing record aside, projects its neighbours', async () => {
    const messages = Array.from({ length: 24 }, (_, i) =>
      i % 8 === 0 ? PROJECTION_MARK : `projected ${i}`,
    )
    const replies = await Promise.all(messages.map(send))
    expect(replies.map(status)).toEqual(Array(messages.length).fill(201))
    // harness.query waits for the projection to pass every acknowledged record.
    const [stored] = await harness.query<{ n: number }>(
      `select count(*)::int as n from events where project_id = $1 and message like 'projected %'`,
      [projectId],
    )
    expect(stored!.n).toBe(messages.filter((m) => m !== PROJECTION_MARK).length)
    const failures = await harness.query<{ consumer: string; error: string; message: string }>(
      `select consumer, error, record->'op'->'event'->>'message' as message from ingest_log_failures
        where project_id = $1`,
      [projectId],
    )
    expect(failures).toHaveLength(messages.filter((m) => m === PROJECTION_MARK).length)
    for (const f of failures) {
      expect(f.consumer).toBe('projection')
      expect(f.error).toContain('injected projection failure')
    }
    const after = await send('projected after')
    expect(status(after)).toBe(201)
    const read = await createClient(harness.url).api(
      'GET',
      `/api/v1/projects/${projectId}/events/${(after as Reply).body.id}`,
      { token: ADMIN_TOKEN },
    )
    expect(read.status).toBe(200)
    expect(read.headers.get('x-tis-projection-lag')).toBeNull()
  }, 60_000)
})
