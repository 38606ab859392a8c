import type { SqlExecutor } from './executor'
import { ACCOUNTS_MIGRATION } from './migrations/0001-accounts'
import { EVENTS_MIGRATION } from './migrations/0002-events'
import { MONITORS_DEPLOYMENTS_MIGRATION } from './migrations/0003-monitors-deployments'
import { MOBILE_RATE_LIMITS_MIGRATION } from './migrations/0004-mobile-rate-limits'
import { ISSUE_READS_MIGRATION } from './migrations/0005-issue-reads'
import { PERFORMANCE_READS_MIGRATION } from './migrations/0006-performance-reads'
import { ANALYTICS_OUTBOX_MIGRATION } from './migrations/0007-analytics-outbox'
import { READ_INDEXES_MIGRATION } from './migrations/0008-read-indexes'
import { SOURCE_EXCERPTS_MIGRATION } from './migrations/0009-source-excerpts'
import { DASHBOARD_SESSIONS_MIGRATION } from './migrations/0010-dashboard-sessions'
import { CHECK_IN_HISTORY_MIGRATION } from './migrations/0011-check-in-history'
import { INGEST_LOG_MIGRATION } from './migrations/0012-ingest-log'
import { ANALYTICS_CURSOR_MIGRATION } from './migrations/0013-analytics-cursor'
import { READ_MODEL_INDEXES_MIGRATION } from './migrations/0014-read-model-indexes'
import { INGEST_LOG_PROJECT_CHECK_MIGRATION } from './migrations/0015-ingest-log-project-check'
import { ALERTS_MIGRATION } from './migrations/0016-alerts'
import { ALERT_BURSTS_MIGRATION } from './migrations/0017-alert-bursts'
import { SENTRY_KEYS_MIGRATION } from './migrations/0018-sentry-keys'
import { RETENTION_MIGRATION } from './migrations/0019-retention'
import { INGEST_LOG_INLINE_MIGRATION } from './migrations/0020-ingest-log-inline'
import { ARTIFACTS_MIGRATION } from './migrations/0021-artifacts'
import { DROP_ANALYTICS_OUTBOX_MIGRATION } from './migrations/0022-drop-analytics-outbox'
import { DATA_SCRUBBING_MIGRATION } from './migrations/0023-data-scrubbing'
import { RELEASE_HEALTH_MIGRATION } from './migrations/0024-release-health'
import { ISSUE_USERS_MIGRATION } from './migrations/0025-issue-users'
import { ISSUE_ASSIGNEES_MIGRATION } from './migrations/0026-issue-assignees'
import { ISSUE_HISTORY_MIGRATION } from './migrations/0027-issue-history'
import { ISSUE_IGNORE_UNTIL_MIGRATION } from './migrations/0028-issue-ignore-until'
import { ISSUE_MERGES_MIGRATION } from './migrations/0029-issue-merges'
import { ISSUE_SEARCH_INDEXES_MIGRATION } from './migrations/0030-issue-search-indexes'
import type { Migration } from './migrations/migration'

/** Every migration, oldest first. Append new ones; never edit one that has shipped. */
export const MIGRATIONS: readonly Migration[] = [
  ACCOUNTS_MIGRATION,
  EVENTS_MIGRATION,
  MONITORS_DEPLOYMENTS_MIGRATION,
  MOBILE_RATE_LIMITS_MIGRATION,
  ISSUE_READS_MIGRATION,
  PERFORMANCE_READS_MIGRATION,
  ANALYTICS_OUTBOX_MIGRATION,
  READ_INDEXES_MIGRATION,
  SOURCE_EXCERPTS_MIGRATION,
  DASHBOARD_SESSIONS_MIGRATION,
  CHECK_IN_HISTORY_MIGRATION,
  INGEST_LOG_MIGRATION,
  ANALYTICS_CURSOR_MIGRATION,
  READ_MODEL_INDEXES_MIGRATION,
  INGEST_LOG_PROJECT_CHECK_MIGRATION,
  ALERTS_MIGRATION,
  ALERT_BURSTS_MIGRATION,
  SENTRY_KEYS_MIGRATION,
  RETENTION_MIGRATION,
  INGEST_LOG_INLINE_MIGRATION,
  ARTIFACTS_MIGRATION,
  DROP_ANALYTICS_OUTBOX_MIGRATION,
  DATA_SCRUBBING_MIGRATION,
  RELEASE_HEALTH_MIGRATION,
  ISSUE_USERS_MIGRATION,
  ISSUE_ASSIGNEES_MIGRATION,
  ISSUE_HISTORY_MIGRATION,
  ISSUE_IGNORE_UNTIL_MIGRATION,
  ISSUE_MERGES_MIGRATION,
  ISSUE_SEARCH_INDEXES_MIGRATION,
]

// Arbitrary, fixed key of the transaction-scoped advisory lock that serialises migrators: two
// server instances starting at once take turns, and the second finds everything applied.
export const MIGRATION_LOCK_KEY = 7_301_652_288_313

const CREATE_MIGRATIONS_TABLE = /* sql */ `
create table schema_migrations (
  version integer primary key,
  name text not null,
  applied_at timestamptz not null default now()
)`

/**
 * Applies the migrations not yet recorded in `schema_migrations`, all in one transaction under
 * an advisory lock. Idempotent; concurrent callers wait for each other. The table is looked up
 * with `to_regclass` (rather than `create table if not exists`) so no NOTICE is logged on every
 * start.
 */
export async function runMigrations(
  executor: SqlExecutor,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<void> {
  await executor.transaction(async (tx) => {
    await tx.query(`select pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`)
    const [table] = await tx.query<{ name: string | null }>(
      `select to_regclass('schema_migrations')::text as name`,
    )
    if (!table?.name) await tx.exec(CREATE_MIGRATIONS_TABLE)
    const rows = await tx.query<{ version: number }>('select version from schema_migrations')
    const applied = new Set(rows.map((r) => r.version))
    for (const migration of migrations) {
      if (applied.has(migration.version)) continue
      await tx.exec(migration.sql)
      await tx.query('insert into schema_migrations (version, name) values ($1::int, $2::text)', [
        migration.version,
        migration.name,
      ])
    }
  })
}
