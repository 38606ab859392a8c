import { randomBytes, randomUUID } from 'node:crypto'
import type { WriteOp } from '@tis/ingest'
import { describeWithTestDatabase } from '@tis/test-utils/postgres-suite'
import { eventOp, projectAll, seedProject, spanOp } from '@tis/test-utils/store-fixtures'
import postgres from 'postgres'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openPostgresStore, type PostgresIngestStore } from '../src/index'

// The sequence-gap trap of docs/design write-path.md, on real PostgreSQL with two writers: a
// log row with a smaller seq can commit after one with a larger seq. The projection must
// neither skip the late row nor project the early one twice, whichever of the two writers
// took its transaction id first.

/** A store and a client on a schema of the suite's own, created before it and dropped after. */
function ownSchema(url: string) {
  const schema = `tis_log_${randomBytes(6).toString('hex')}`
  const options = { max: 4, onnotice: () => {}, connection: { search_path: schema } } as const
  const own = {} as { store: PostgresIngestStore; sql: postgres.Sql; slow: postgres.ReservedSql }
  let admin: postgres.Sql | undefined
  beforeAll(async () => {
    admin = postgres(url, { max: 1, onnotice: () => {} })
    await admin.unsafe(`create schema ${schema}`)
    own.store = await openPostgresStore(url, { client: options })
    own.sql = postgres(url, options)
    own.slow = await own.sql.reserve()
  })
  afterAll(async () => {
    own.slow?.release()
    await own.sql?.end()
    await own.store?.close()
    await admin?.unsafe(`drop schema ${schema} cascade`)
    await admin?.end()
  })
  return own
}

describeWithTestDatabase('ingest log order under concurrent writers', (url) => {
  const own = ownSchema(url)

  const count = async (projectId: string) =>
    Number((await own.sql`select count(*) as n from events where project_id = ${projectId}`)[0]!.n)

  /** A log row written by the "slow" writer, whose transaction stays open until `commit()`. */
  async function slowAppend(projectId: string, takeXidFirst: boolean) {
    await own.slow.unsafe('begin')
    const seq = Number((await own.slow.unsafe(`select nextval('ingest_log_seq') as s`))[0]!['s'])
    if (takeXidFirst) await own.slow.unsafe('select pg_current_xact_id()')
    const op = eventOp(projectId)
    const record = { v: 1, op: JSON.parse(JSON.stringify(op)) }
    return {
      seq,
      async insert() {
        await own.slow.unsafe(
          `insert into ingest_log (seq, project_id, id, kind, received_at, record)
           values ($1, $2, $3, 'event', now(), $4::text::jsonb)`,
          [seq, projectId, randomUUID(), JSON.stringify(record)],
        )
      },
      commit: () => own.slow.unsafe('commit'),
    }
  }

  describe.each([
    ['the slow writer took its transaction id first', true],
    ['the fast writer took its transaction id first', false],
  ])('%s', (_, takeXidFirst) => {
    it('projects the late row once, after it commits, never skipping it', async () => {
      const { projectId } = await seedProject(own.store)
      await projectAll(own.store)
      const late = await slowAppend(projectId, takeXidFirst)
      if (takeXidFirst) await late.insert()
      const [fast] = await own.store.append([eventOp(projectId)])
      expect(fast!.legacyId).toBeGreaterThan(late.seq)
      if (!takeXidFirst) await late.insert()
      // The slow row is not committed: whatever the projection reads now, it must come back
      // for the slow row later.
      await own.store.project(1000)
      await late.commit()
      await projectAll(own.store)
      expect(await count(projectId)).toBe(2)
      expect(await own.store.pendingTarget()).toBeNull()
      const seqs =
        await own.sql`select legacy_id from events where project_id = ${projectId} order by legacy_id`
      expect(seqs.map((r) => Number(r['legacy_id']))).toEqual([late.seq, fast!.legacyId])
    })
  })
})

// Consumers read in (xid, seq) order, xid as a number. Their queries return xid as text (it
// may pass 2^53); an ORDER BY that named the text column sorted xid 10 before 9, so a round
// smaller than the backlog moved the position past entries it had not read: acknowledged
// records never projected. The entries here carry chosen transaction ids across a digit
// boundary, far below every running transaction, so the consumer may read them at once. A
// schema of its own: the projection's position starts at the beginning.
describeWithTestDatabase('ingest log consumers order xids as numbers', (url) => {
  const own = ownSchema(url)

  it('projects every entry, one per round, when xids cross a digit boundary', async () => {
    const { projectId } = await seedProject(own.store)
    const xids = [8, 9, 10, 11, 99, 100]
    for (const xid of xids) {
      const op = eventOp(projectId)
      await own.sql.unsafe(
        `insert into ingest_log (seq, xid, project_id, id, kind, received_at, record)
         values (nextval('ingest_log_seq'), $1::text::xid8, $2, $3, 'event', now(),
                 $4::text::jsonb)`,
        [String(xid), projectId, op.id, JSON.stringify({ v: 1, op: { ...op, id: op.id } })],
      )
    }
    let rounds = 0
    while ((await own.store.project(1)).projected > 0) rounds++
    expect(rounds).toBe(xids.length)
    const [row] =
      await own.sql`select count(*)::int as n from events where project_id = ${projectId}`
    expect(row!['n']).toBe(xids.length)
    expect(await own.store.pendingTarget()).toBeNull()
    const [position] = await own.sql`select xid::text as xid from log_consumers
                                  where name = 'projection'`
    expect(position!['xid']).toBe('100')
  })
})

// The projection plans rows from the logged op and copies the payload from the log in SQL
// (INSERT_PROJECTED_*): every column, and the payload, must come out of the op, including the
// values an event carries only in its context.
describeWithTestDatabase('projected rows carry every column of their op', (url) => {
  const own = ownSchema(url)

  /** Fields only in `context`, where the normaliser's copy would be… */
  const fromContext = {
    environment: 'staging',
    release: 'api@2.0.0',
    trace_id: 'ab'.repeat(16),
    request_id: 'req-1',
    session_id: 'sess-1',
    user_id: 'user-1',
  }
  /** …and a large rest. */
  const context = (extra: Record<string, unknown>) => ({
    ...fromContext,
    tags: { region: 'eu', host: 'web-1' },
    request: { method: 'GET', url: 'https://x.test/a', headers: { 'user-agent': 'probe' } },
    exception: { exception_class: 'TypeError', frames: [{ file: 'a.ts', line: 1 }] },
    ...extra,
  })
  const events = (projectId: string): WriteOp[] => [
    eventOp(projectId, {
      event: {
        event_type: 'transaction',
        message: 'GET /a',
        context: context({
          transaction_name: 'GET /a',
          duration_ms: 12.5,
          response: { status: '503' },
        }),
      },
    }),
    eventOp(projectId, {
      event: { event_type: 'metric', message: 'queue.depth', context: context({ value: 7 }) },
    }),
    eventOp(projectId, {
      issue: { hash: 'c'.repeat(64) },
      event: { context: context({ http: { status_code: 502 }, duration_ms: 3 }) },
    }),
    spanOp(projectId, 'cd'.repeat(16), {
      trace_id: undefined,
      span_id: undefined,
      started_at: undefined,
      ended_at: undefined,
      context: context({
        trace_id: 'ef'.repeat(16),
        span_id: '0123456789abcdef',
        parent_span_id: 'fedcba9876543210',
        kind: 'server',
        started_at: '2026-11-26T10:00:00.000Z',
        ended_at: '2026-11-26T10:00:00.250Z',
      }),
    }),
  ]
  it('stores every column and the whole payload of events and spans alike', async () => {
    const { projectId } = await seedProject(own.store)
    const ops = events(projectId)
    await own.store.append(ops)
    await projectAll(own.store)
    const stored = await own.sql`select event_type, message, environment, release, trace_id,
        request_id, session_id, user_id, transaction_name, duration_ms, status_code, value,
        name_key is not null as named, is_error, issue_id is not null as grouped, payload
      from events where project_id = ${projectId} order by legacy_id`
    expect(stored.map(({ payload, ...row }) => row)).toEqual([
      {
        ...fromContext,
        event_type: 'transaction',
        message: 'GET /a',
        transaction_name: 'GET /a',
        duration_ms: 12.5,
        status_code: 503,
        value: null,
        named: true,
        is_error: true,
        grouped: false,
      },
      {
        ...fromContext,
        event_type: 'metric',
        message: 'queue.depth',
        transaction_name: null,
        duration_ms: null,
        status_code: null,
        value: 7,
        named: true,
        is_error: null,
        grouped: false,
      },
      {
        ...fromContext,
        event_type: 'error',
        message: 'hello',
        transaction_name: null,
        duration_ms: 3,
        status_code: 502,
        value: null,
        named: false,
        is_error: null,
        grouped: true,
      },
    ])
    const json = (value: unknown) => JSON.parse(JSON.stringify(value))
    expect(stored.map((r) => r['payload'])).toEqual(
      ops.slice(0, 3).map((op) => json((op as Extract<WriteOp, { type: 'event' }>).event)),
    )
    const [span] = await own.sql`select trace_id, span_id, parent_span_id, name, kind,
        started_at, ended_at, duration_ms, environment, release, payload
      from spans where project_id = ${projectId}`
    const { payload, ...columns } = span!
    expect(columns).toEqual({
      trace_id: 'ef'.repeat(16),
      span_id: '0123456789abcdef',
      parent_span_id: 'fedcba9876543210',
      name: 'GET /',
      kind: 'server',
      started_at: new Date('2026-11-26T10:00:00.000Z'),
      ended_at: new Date('2026-11-26T10:00:00.250Z'),
      duration_ms: 250,
      environment: 'staging',
      release: 'api@2.0.0',
    })
    expect(payload).toEqual(json((ops[3] as Extract<WriteOp, { type: 'span' }>).event))
  })
})
