import { randomBytes, randomUUID } from 'node:crypto'
import { describeWithTestDatabase } from '@tis/test-utils/postgres-suite'
import { eventOp, seedProject } from '@tis/test-utils/store-fixtures'
import postgres from 'postgres'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openPostgresStore, type PostgresIngestStore } from '../src/index'

// The sequence-gap trap of docs/design write-path.md, on real PostgreSQL with two writers: a
// log row with a smaller seq can commit after one with a larger seq. The projection must
// neither skip the late row nor project the early one twice, whichever of the two writers
// took its transaction id first.

describeWithTestDatabase('ingest log order under concurrent writers', (url) => {
  const schema = `tis_log_${randomBytes(6).toString('hex')}`
  const options = { max: 4, onnotice: () => {}, connection: { search_path: schema } } as const
  let admin: postgres.Sql
  let store: PostgresIngestStore
  let slow: postgres.ReservedSql
  let sql: postgres.Sql

  beforeAll(async () => {
    admin = postgres(url, { max: 1, onnotice: () => {} })
    await admin.unsafe(`create schema ${schema}`)
    store = await openPostgresStore(url, { client: options })
    sql = postgres(url, options)
    slow = await sql.reserve()
  })
  afterAll(async () => {
    slow?.release()
    await sql?.end()
    await store?.close()
    await admin?.unsafe(`drop schema ${schema} cascade`)
    await admin?.end()
  })

  const count = async (projectId: string) =>
    Number((await sql`select count(*) as n from events where project_id = ${projectId}`)[0]!.n)

  /** A log row written by the "slow" writer, whose transaction stays open until `commit()`. */
  async function slowAppend(projectId: string, takeXidFirst: boolean) {
    await slow.unsafe('begin')
    const seq = Number((await slow.unsafe(`select nextval('ingest_log_seq') as s`))[0]!['s'])
    if (takeXidFirst) await slow.unsafe('select pg_current_xact_id()')
    const op = eventOp(projectId)
    const record = { v: 1, op: JSON.parse(JSON.stringify(op)) }
    return {
      seq,
      async insert() {
        await slow.unsafe(
          `insert into ingest_log (seq, project_id, id, kind, received_at, record)
           values ($1, $2, $3, 'event', now(), $4::text::jsonb)`,
          [seq, projectId, randomUUID(), JSON.stringify(record)],
        )
      },
      commit: () => slow.unsafe('commit'),
    }
  }

  describe.each([
    ['the slow writer took its transaction id first', true],
    ['the fast writer took its transaction id first', false],
  ])('%s', (_, takeXidFirst) => {
    it('projects the late row once, after it commits, never skipping it', async () => {
      const { projectId } = await seedProject(store)
      while ((await store.project(1000)).more);
      const late = await slowAppend(projectId, takeXidFirst)
      if (takeXidFirst) await late.insert()
      const [fast] = await store.append([eventOp(projectId)])
      expect(fast!.legacyId).toBeGreaterThan(late.seq)
      if (!takeXidFirst) await late.insert()
      // The slow row is not committed: whatever the projection reads now, it must come back
      // for the slow row later.
      await store.project(1000)
      await late.commit()
      while ((await store.project(1000)).more);
      expect(await count(projectId)).toBe(2)
      expect(await store.pendingTarget()).toBeNull()
      const seqs =
        await sql`select legacy_id from events where project_id = ${projectId} order by legacy_id`
      expect(seqs.map((r) => Number(r['legacy_id']))).toEqual([late.seq, fast!.legacyId])
    })
  })
})
