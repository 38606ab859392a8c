import { randomBytes } from 'node:crypto'
import { describeWithTestDatabase } from '@tis/test-utils/postgres-suite'
import { eventOp, seedProject } from '@tis/test-utils/store-fixtures'
import postgres from 'postgres'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { openPostgresStore, type PostgresIngestStore } from '../src/index'

// Consumers read in (xid, seq) order, xid as a number. Their queries return xid as text (it
// may pass 2^53); an ORDER BY that named the text column sorted xid 10 before 9, so a round
// smaller than the backlog moved the position past entries it had not read: acknowledged
// records never projected. The entries here carry chosen transaction ids across a digit
// boundary, far below every running transaction, so the consumer may read them at once.

describeWithTestDatabase('ingest log consumers order xids as numbers', (url) => {
  const schema = `tis_xid_${randomBytes(6).toString('hex')}`
  const options = { max: 2, onnotice: () => {}, connection: { search_path: schema } } as const
  let admin: postgres.Sql
  let store: PostgresIngestStore
  let sql: postgres.Sql

  beforeAll(async () => {
    admin = postgres(url, { max: 1, onnotice: () => {} })
    await admin.unsafe(`create schema ${schema}`)
    store = await openPostgresStore(url, { client: options })
    sql = postgres(url, options)
  })
  afterAll(async () => {
    await sql?.end()
    await store?.close()
    await admin?.unsafe(`drop schema ${schema} cascade`)
    await admin?.end()
  })

  it('projects every entry, one per round, when xids cross a digit boundary', async () => {
    const { projectId } = await seedProject(store)
    const xids = [8, 9, 10, 11, 99, 100]
    for (const xid of xids) {
      const op = eventOp(projectId)
      await sql.unsafe(
        `insert into ingest_log (seq, xid, project_id, id, kind, received_at, record)
         values (nextval('ingest_log_seq'), $1::text::xid8, $2, $3, 'event', now(),
                 $4::text::jsonb)`,
        [String(xid), projectId, op.id, JSON.stringify({ v: 1, op: { ...op, id: op.id } })],
      )
    }
    let rounds = 0
    while ((await store.project(1)).projected > 0) rounds++
    expect(rounds).toBe(xids.length)
    const [row] = await sql`select count(*)::int as n from events where project_id = ${projectId}`
    expect(row!['n']).toBe(xids.length)
    expect(await store.pendingTarget()).toBeNull()
    const [position] = await sql`select xid::text as xid from log_consumers
                                  where name = 'projection'`
    expect(position!['xid']).toBe('100')
  })
})
