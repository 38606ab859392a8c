import { randomUUID } from 'node:crypto'
import { seedLegacyProject } from '@tis/test-utils/store-fixtures'
import { describe, expect, it } from 'vitest'
import { MIGRATIONS, runMigrations } from '../src/migrate'
import type { UpgradeHarness } from './alert-upgrade-suite'

const DROP_VERSION = 22
/** Where a full upgrade ends: the newest migration. */
const LATEST = MIGRATIONS.at(-1)!.version

/**
 * Migration 22 (`analytics_outbox` dropped) on a database migrated to the version before it:
 * an empty outbox is dropped; one still holding records not exported stops the upgrade with a
 * message saying what to do, applies nothing and keeps every record, until they are exported.
 */
export function describeOutboxUpgrade(name: string, factory: () => Promise<UpgradeHarness>) {
  describe(`analytics outbox upgrade: ${name}`, () => {
    const before = MIGRATIONS.filter((m) => m.version < DROP_VERSION)
    const count = async (h: UpgradeHarness, sql: string) =>
      (await h.db.query<{ n: number }>(sql))[0]?.n
    const outboxTable = async (h: UpgradeHarness) =>
      (
        await h.db.query<{ name: string | null }>(`select to_regclass('analytics_outbox') as name`)
      )[0]?.name ?? null
    const version = (h: UpgradeHarness) =>
      count(h, 'select max(version)::int as n from schema_migrations')

    /** Two records queued for export as the previous version queued them, one of them leased. */
    async function queue(h: UpgradeHarness) {
      const { projectId } = await seedLegacyProject((text, params) => h.db.query(text, params))
      const row = (kind: string) =>
        JSON.stringify({ id: randomUUID(), project_id: projectId, kind, payload: {} })
      await h.db.query(
        `insert into analytics_outbox (kind, row, lease, leased_until)
         values ('event', $1::jsonb, null, null),
                ('span', $2::jsonb, $3::uuid, now() + interval '1 minute')`,
        [row('event'), row('span'), randomUUID()],
      )
    }

    it('drops an empty outbox', async () => {
      const h = await factory()
      try {
        await runMigrations(h.db, before)
        expect(await outboxTable(h)).toBe('analytics_outbox')
        await h.store.migrate()
        expect(await outboxTable(h)).toBeNull()
        expect(await version(h)).toBe(LATEST)
      } finally {
        await h.close()
      }
    })

    it('refuses to drop records not exported, applies nothing, and upgrades once they are', async () => {
      const h = await factory()
      try {
        await runMigrations(h.db, before)
        await queue(h)
        await expect(h.store.migrate()).rejects.toThrow(
          /analytics_outbox still holds 2 records not exported to the analytics store.*docs\/analytics\.md/s,
        )
        // Rolled back whole: the table, its records and the schema version are as they were.
        expect(await version(h)).toBe(DROP_VERSION - 1)
        expect(await count(h, 'select count(*)::int as n from analytics_outbox')).toBe(2)
        // Starting again changes nothing while they wait.
        await expect(h.store.migrate()).rejects.toThrow(/still holds 2 records/)
        // The previous version's drainer exports them: `complete` deletes the exported rows.
        await h.db.query('delete from analytics_outbox')
        await h.store.migrate()
        expect(await outboxTable(h)).toBeNull()
        expect(await version(h)).toBe(LATEST)
      } finally {
        await h.close()
      }
    })
  })
}
