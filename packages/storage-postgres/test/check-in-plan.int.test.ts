import { randomBytes, randomUUID } from 'node:crypto'
import { PGlite } from '@electric-sql/pglite'
import type { CheckInQuery } from '@tis/ingest'
import { describeWithTestDatabase } from '@tis/test-utils/postgres-suite'
import {
  acceptAndProject,
  at,
  checkInOp,
  monitorUpdate,
  seedProject,
} from '@tis/test-utils/store-fixtures'
import postgres from 'postgres'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkInsStatement } from '../src/check-in-reads'
import type { SqlExecutor } from '../src/executor'
import { createPgliteExecutor } from '../src/pglite-executor'
import { createPostgresExecutor } from '../src/postgres-executor'
import { createStore, type PostgresIngestStore } from '../src/store'

const MONITORS = 20
const CHECK_INS_PER_MONITOR = 2_000

/**
 * The plan of a history page on a seeded table (40,000 check-ins over 20 monitors, one in ten
 * from an event): one range scan of `check_ins_monitor_time_id_idx` in the page's order, with no
 * sort node and no sequential scan, for the first page, a later page and the filters.
 */
function describePlans(
  name: string,
  open: () => Promise<{ db: SqlExecutor; close(): Promise<void> }>,
) {
  describe(`check-in history plan: ${name}`, () => {
    let db: SqlExecutor
    let close: () => Promise<void>
    let store: PostgresIngestStore
    let projectId: string
    let monitorId: string

    beforeAll(async () => {
      ;({ db, close } = await open())
      store = createStore(db, async () => {})
      await store.migrate()
      ;({ projectId } = await seedProject(store))
      const slugs = Array.from({ length: MONITORS }, () => `plan-${randomUUID()}`)
      await acceptAndProject(
        store,
        slugs.map((s) => checkInOp(projectId, monitorUpdate(s, 'ok', at(0)))),
      )
      const [monitor] = await store.listMonitors({ projectId, slug: slugs[0]!, limit: 1 })
      monitorId = monitor!.id
      await db.exec(`
        insert into events (id, project_id, event_type, message, occurred_at, received_at, payload)
        select gen_random_uuid(), m.project_id, 'check_in', 'job', now(), now(), '{}'::jsonb
          from monitors m where m.project_id = '${projectId}';
        insert into check_ins (monitor_id, project_id, slug, status, environment, occurred_at,
          received_at, source, event_id)
        select m.id, m.project_id, m.slug, case when g % 7 = 0 then 'error' else 'ok' end,
          m.environment, timestamptz '2026-01-01' + (g / 3) * interval '1 minute', now(),
          case when g % 10 = 0 then 'event' else 'check_in' end,
          case when g % 10 = 0 then (select e.id from events e limit 1) end
          from monitors m, generate_series(1, ${CHECK_INS_PER_MONITOR}) g
         where m.project_id = '${projectId}';
        analyze check_ins; analyze events; analyze monitors;`)
    }, 120_000)
    afterAll(() => close?.())

    const plan = async (query: Partial<CheckInQuery>) => {
      const { text, params } = checkInsStatement({ projectId, monitorId, limit: 51, ...query })
      const rows = await db.query(`explain ${text}`, params)
      return rows.map((r) => String(r['QUERY PLAN'])).join('\n')
    }

    it.each([
      ['the first page', {}],
      ['a later page', { after: { at: new Date('2026-01-01T05:00:00Z'), id: randomUUID() } }],
      ['a window', { since: new Date('2026-01-01T01:00:00Z'), until: at(36_000) }],
    ])('%s: an index scan in order, no sort', async (_, query) => {
      const text = await plan(query)
      expect(text).toMatch(/Index Scan using check_ins_monitor_time_id_idx on check_ins/)
      expect(text).not.toMatch(/Sort/)
      expect(text).not.toMatch(/Seq Scan on check_ins/)
      if (process.env['SHOW_PLANS']) console.info(text)
    })

    it('a status filter reads the same index, never the whole table', async () => {
      // Walking the index until 51 rows match, or sorting the few rows of a rare status: the
      // planner picks by its estimate; both stay within the monitor's range of the index.
      const text = await plan({ status: 'error' })
      expect(text).toMatch(/check_ins_monitor_time_id_idx/)
      expect(text).not.toMatch(/Seq Scan on check_ins/)
    })

    it('returns the page the plan reads', async () => {
      const rows = await store.listCheckIns({ projectId, monitorId, limit: 51 })
      expect(rows).toHaveLength(51)
      expect(rows[0]!.occurredAt.getTime()).toBeGreaterThan(rows[50]!.occurredAt.getTime())
    })
  })
}

describePlans('PGlite', async () => {
  const pglite = await PGlite.create()
  return { db: createPgliteExecutor(pglite), close: () => pglite.close() }
})

describeWithTestDatabase('PostgreSQL', (url) => {
  describePlans('PostgreSQL', async () => {
    const schema = `tis_plan_${randomBytes(6).toString('hex')}`
    const admin = postgres(url, { max: 1, onnotice: () => {} })
    await admin.unsafe(`create schema ${schema}`)
    const sql = postgres(url, { max: 2, onnotice: () => {}, connection: { search_path: schema } })
    return {
      db: createPostgresExecutor(sql),
      async close() {
        await sql.end()
        await admin.unsafe(`drop schema ${schema} cascade`)
        await admin.end()
      },
    }
  })
})
