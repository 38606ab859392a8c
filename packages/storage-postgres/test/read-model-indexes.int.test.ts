import { randomBytes, randomUUID } from 'node:crypto'
import { PGlite } from '@electric-sql/pglite'
import { describeWithTestDatabase } from '@tis/test-utils/postgres-suite'
import {
  acceptAndProject,
  eventOp,
  seedLegacyProject,
  seedProject,
  uniqueHash,
} from '@tis/test-utils/store-fixtures'
import postgres from 'postgres'
import { describe, expect, it } from 'vitest'
import type { SqlExecutor } from '../src/executor'
import { MIGRATIONS, runMigrations } from '../src/migrate'
import { createPgliteExecutor } from '../src/pglite-executor'
import { createPostgresExecutor } from '../src/postgres-executor'
import { createStore } from '../src/store'
import { applyTextSearchIndex, TEXT_SEARCH_INDEX } from '../src/text-search-index'

/**
 * Every index on the tables the projection writes, as docs/benchmarks.md ("Index audit of the
 * read model") lists them with the read that needs each. A new index fails this test until the
 * audit names the endpoint it serves. The trigram index exists where pg_trgm does.
 */
const AUDITED: Record<string, readonly string[]> = {
  events: [
    // Migration 30: the issue search's environment:, release: and user.id: terms.
    'events_issue_environment_idx',
    'events_issue_idx',
    'events_issue_release_idx',
    'events_issue_user_idx',
    'events_message_trgm_idx',
    'events_metrics_cover_idx',
    'events_pkey',
    'events_project_request_idx',
    'events_project_session_idx',
    'events_project_time_idx',
    'events_project_trace_idx',
    'events_project_type_time_idx',
    'events_project_user_idx',
    'events_transactions_cover_idx',
  ],
  spans: [
    'spans_pkey',
    'spans_project_roots_idx',
    // Migration 19: the retention pass finds a project's oldest spans.
    'spans_project_started_idx',
    'spans_project_trace_start_idx',
  ],
  issues: [
    'issues_pkey',
    'issues_project_activity_idx',
    'issues_project_hash_key',
    'issues_project_status_activity_idx',
  ],
  check_ins: ['check_ins_event_idx', 'check_ins_monitor_time_id_idx', 'check_ins_pkey'],
  monitors: ['monitors_pkey', 'monitors_project_slug_environment_key'],
  deployments: [
    'deployments_pkey',
    'deployments_project_deployed_at_idx',
    'deployments_project_repository_environment_release_key',
  ],
}

const VERSION_BEFORE = 12

function describeAudit(
  name: string,
  open: () => Promise<{ db: SqlExecutor; close(): Promise<void> }>,
) {
  describe(`read model indexes (migration 14): ${name}`, () => {
    it('migrates a database holding projected events to exactly the audited indexes, without the per-row foreign keys', async () => {
      const { db, close } = await open()
      try {
        await runMigrations(
          db,
          MIGRATIONS.filter((m) => m.version <= VERSION_BEFORE),
        )
        const store = createStore(db, async () => {})
        const { projectId } = await seedLegacyProject((text, params) => db.query(text, params))
        // Written in SQL: today's write path needs the tables of later migrations (alerts).
        const eventId = randomUUID()
        const [stored] = await db.query<{ legacy_id: number }>(
          `with issue as (
             insert into issues (project_id, hash, grouping_key, title, level, count,
               first_seen_at, last_seen_at)
             values ($1::uuid, $2, $2, 'Boom', 'error', 1, now(), now()) returning id)
           insert into events (id, project_id, event_type, occurred_at, received_at, payload,
             issue_id)
           select $3::uuid, $1::uuid, 'error', now(), now(), '{}'::jsonb, id from issue
           returning legacy_id`,
          [projectId, uniqueHash(), eventId],
        )
        await store.migrate()

        const [trgm] = await db.query<{ n: number }>(
          "select count(*)::int as n from pg_extension where extname = 'pg_trgm'",
        )
        const rows = await db.query<{ table: string; index: string }>(
          `select tablename as table, indexname as index from pg_indexes
            where schemaname = current_schema() and tablename = any($1::text[])
            order by 1, 2`,
          [Object.keys(AUDITED)],
        )
        for (const [table, expected] of Object.entries(AUDITED)) {
          const want = expected.filter((i) => trgm!.n > 0 || i !== 'events_message_trgm_idx')
          expect(
            rows.filter((r) => r.table === table).map((r) => r.index),
            table,
          ).toEqual(want)
        }
        const keys = await db.query<{ name: string }>(
          `select conname as name from pg_constraint
            where contype = 'f' and conrelid in ('events'::regclass, 'spans'::regclass)`,
        )
        expect(keys).toEqual([])
        // The event written before the migration is still there, with its issue.
        const [event] = await db.query<{ legacy_id: number; issue_id: string | null }>(
          'select legacy_id, issue_id::text as issue_id from events where id = $1::uuid',
          [eventId],
        )
        expect(event?.legacy_id).toBe(stored!.legacy_id)
        expect(event?.issue_id).not.toBeNull()
      } finally {
        await close()
      }
    })
  })
}

/**
 * `textSearchIndex` (SERVICE_TEXT_SEARCH_INDEX): `migrate()` drops the trigram index when
 * `false` and creates it again when `true`; `q` search answers the same either way.
 */
function describeTextSearchIndex(
  name: string,
  open: () => Promise<{ db: SqlExecutor; close(): Promise<void> }>,
) {
  describe(`the optional text search index: ${name}`, () => {
    it('is dropped and created by migrate() as the option says, and search answers without it', async () => {
      const { db, close } = await open()
      try {
        const present = async () => {
          const [row] = await db.query<{ present: boolean }>(
            'select to_regclass($1::text) is not null as present',
            [TEXT_SEARCH_INDEX],
          )
          return row!.present
        }
        const store = (textSearchIndex?: boolean) =>
          createStore(db, async () => {}, { textSearchIndex })
        await store().migrate()
        expect(await present()).toBe(true)
        const { projectId } = await seedProject(store())
        const hit = eventOp(projectId, { event: { message: 'disk 93% full on db-1' } })
        await acceptAndProject(store(), [hit, eventOp(projectId)])
        const search = async () =>
          (await store().listEvents({ projectId, limit: 10, q: '93% full' })).map((e) => e.id)
        expect(await search()).toEqual([hit.id])

        await store(false).migrate()
        expect(await present()).toBe(false)
        expect(await search()).toEqual([hit.id])
        expect(await applyTextSearchIndex(db, false)).toBe('unchanged')

        await store(true).migrate()
        expect(await present()).toBe(true)
        expect(await search()).toEqual([hit.id])
        expect(await applyTextSearchIndex(db, true)).toBe('unchanged')
      } finally {
        await close()
      }
    })
  })
}

describeTextSearchIndex('PGlite', async () => {
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm')
  const pglite = await PGlite.create({ extensions: { pg_trgm } })
  return { db: createPgliteExecutor(pglite), close: () => pglite.close() }
})

describeAudit('PGlite', async () => {
  const pglite = await PGlite.create()
  return { db: createPgliteExecutor(pglite), close: () => pglite.close() }
})

describeWithTestDatabase('PostgreSQL', (url) => {
  // Each test in a schema of its own, dropped afterwards.
  const open = async () => {
    const schema = `tis_audit_${randomBytes(6).toString('hex')}`
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
  }
  describeAudit('PostgreSQL', open)
  describeTextSearchIndex('PostgreSQL', open)
})
