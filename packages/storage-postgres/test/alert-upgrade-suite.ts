import { randomUUID } from 'node:crypto'
import { addChannel, addRule, triggerCounts } from '@tis/test-utils/store-alert-fixtures'
import {
  acceptAndProject,
  checkInOp,
  eventOp,
  monitorUpdate,
  seedLegacyProject,
} from '@tis/test-utils/store-fixtures'
import { describe, expect, it } from 'vitest'
import type { SqlExecutor } from '../src/executor'
import { MIGRATIONS, runMigrations } from '../src/migrate'
import type { PostgresIngestStore } from '../src/store'
import { createSqlProbe } from './probe'

/** An empty database, not migrated, with a store over it. */
export interface UpgradeHarness {
  readonly db: SqlExecutor
  readonly store: PostgresIngestStore
  close(): Promise<void>
}

const hash = (c: string) => c.repeat(64)
const TRIGGERS = [
  'new_issue',
  'regression',
  'monitor_failed',
  'monitor_missed',
  'monitor_recovered',
]

/**
 * Migration 16 on a database that already holds resolved, regressed and open issues, a monitor
 * in error and one past its deadline: they count as evaluated, so the upgrade notifies nobody
 * about the past; what happens after it does.
 */
export function describeAlertUpgrade(name: string, factory: () => Promise<UpgradeHarness>) {
  describe(`alerts upgrade: ${name}`, () => {
    it('notifies nobody about what happened before migration 16', async () => {
      const { db, store, close } = await factory()
      try {
        await runMigrations(
          db,
          MIGRATIONS.filter((m) => m.version < 16),
        )
        const probe = createSqlProbe(db)
        const { projectId } = await seedLegacyProject((text, params) => db.query(text, params))
        const old = new Date(Date.now() - 86_400_000)
        for (const [c, status, regressions] of [
          ['a', 'unresolved', 2],
          ['b', 'resolved', 1],
          ['c', 'unresolved', 0],
        ] as const) {
          await probe.query(
            `insert into issues (project_id, hash, grouping_key, title, level, status, count,
               first_seen_at, last_seen_at, regression_count)
             values ($1::uuid, $2, $2, 'Boom', 'error', $3, 1, $4::timestamptz, $4::timestamptz,
               $5::bigint)`,
            [projectId, hash(c), status, old.toISOString(), String(regressions)],
          )
        }
        for (const [slug, status] of [
          ['failing', 'error'],
          ['silent', 'ok'],
        ] as const) {
          await probe.query(
            `insert into monitors (project_id, slug, environment, status, status_at, last_status,
               last_check_in_at, expected_interval_seconds, check_in_count, created_at, updated_at)
             values ($1::uuid, $2, 'production', $3, $4::timestamptz, $3, $4::timestamptz, 60, 1,
               $4::timestamptz, $4::timestamptz)`,
            [projectId, slug, status, old.toISOString()],
          )
        }
        await store.migrate()
        const channelIds = [await addChannel(probe, projectId, 'hooks')]
        for (const trigger of TRIGGERS) await addRule(probe, projectId, { trigger, channelIds })

        const seen = (c: string) => eventOp(projectId, { issue: { hash: hash(c) } })
        await acceptAndProject(store, [seen('a'), seen('c')])
        await acceptAndProject(store, [
          checkInOp(projectId, monitorUpdate('failing', 'error', new Date())),
        ])
        await store.markMissedMonitors(new Date(), 100)
        expect(await triggerCounts(probe, projectId)).toEqual({})

        // After the upgrade, changes notify as ever.
        await acceptAndProject(store, [
          seen('b'),
          eventOp(projectId, { issue: { hash: hash('d') } }),
        ])
        const fresh = `fresh-${randomUUID()}`
        await acceptAndProject(store, [
          checkInOp(projectId, monitorUpdate(fresh, 'error', new Date())),
        ])
        expect(await triggerCounts(probe, projectId)).toEqual({
          regression: 1,
          new_issue: 1,
          monitor_failed: 1,
        })
      } finally {
        await close()
      }
    })
  })
}
