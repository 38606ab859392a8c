import { randomUUID } from 'node:crypto'
import { acceptAndProject, eventOp, seedLegacyProject } from '@tis/test-utils/store-fixtures'
import { describe, expect, it } from 'vitest'
import { MIGRATIONS, runMigrations } from '../src/migrate'
import type { UpgradeHarness } from './alert-upgrade-suite'

const hash = (c: string) => c.repeat(64)

/**
 * Migration 25 on a database whose issues already have events: each issue's users are counted
 * from the events stored, and the rounds after it count only users it had not seen.
 */
export function describeIssueUsersUpgrade(name: string, factory: () => Promise<UpgradeHarness>) {
  describe(`affected users upgrade: ${name}`, () => {
    it('counts the users of the stored events, then only new ones', async () => {
      const { db, store, close } = await factory()
      try {
        await runMigrations(
          db,
          MIGRATIONS.filter((m) => m.version < 25),
        )
        const { projectId } = await seedLegacyProject((text, params) => db.query(text, params))
        const old = new Date(Date.now() - 86_400_000).toISOString()
        const issueIds: Record<string, string> = {}
        for (const c of ['a', 'b']) {
          const [row] = await db.query(
            `insert into issues (project_id, hash, grouping_key, title, level, count,
               first_seen_at, last_seen_at)
             values ($1::uuid, $2, $2, 'Boom', 'error', 3, $3::timestamptz, $3::timestamptz)
             returning id::text as id`,
            [projectId, hash(c), old],
          )
          issueIds[c] = row!['id'] as string
        }
        // a: users 1, 1 and 2 (two users); b: one event without a user.
        for (const [c, user] of [
          ['a', '1'],
          ['a', '1'],
          ['a', '2'],
          ['b', ''],
        ] as const) {
          await db.query(
            `insert into events (id, project_id, event_type, occurred_at, received_at, user_id,
               issue_id, payload)
             values ($1::uuid, $2::uuid, 'error', $3::timestamptz, $3::timestamptz, nullif($4, ''),
               $5::uuid, '{}'::jsonb)`,
            [randomUUID(), projectId, old, user, issueIds[c]!],
          )
        }
        await store.migrate()
        const users = async () =>
          Object.fromEntries(
            (await store.listIssues({ projectId, status: null, limit: 10 })).map((i) => [
              i.id,
              i.users,
            ]),
          )
        expect(await users()).toEqual({ [issueIds['a']!]: 2, [issueIds['b']!]: 0 })
        const seen = (c: string, user: string) =>
          eventOp(projectId, { issue: { hash: hash(c) }, event: { user_id: user } })
        await acceptAndProject(store, [seen('a', '2'), seen('a', '3'), seen('b', '1')])
        expect(await users()).toEqual({ [issueIds['a']!]: 3, [issueIds['b']!]: 1 })
      } finally {
        await close()
      }
    })
  })
}
