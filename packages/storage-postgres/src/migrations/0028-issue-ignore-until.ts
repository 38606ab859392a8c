import type { Migration } from './migration'

/**
 * Ignore conditions (docs/issues.md#ignore-until): `ignore_until` holds an ignored issue's
 * condition (`count`, `users`, `until`, or `count` per `window_seconds`) with the count and
 * users it was ignored at (`count_base`, `users_base`); the projection round that meets it
 * reopens the issue and records an `ignore_met` history entry.
 */
export const ISSUE_IGNORE_UNTIL_MIGRATION: Migration = {
  version: 28,
  name: 'issue-ignore-until',
  sql: /* sql */ `
alter table issues add column ignore_until jsonb;
alter table issue_history drop constraint issue_history_kind_check;
alter table issue_history add constraint issue_history_kind_check
  check (kind in ('status', 'assignee', 'comment', 'comment_deleted', 'ignore_met'));
`,
}
