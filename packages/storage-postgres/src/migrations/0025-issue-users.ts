import type { Migration } from './migration'

/**
 * Affected users of an issue (docs/issues.md#affected-users): `issue_users` holds one row per
 * (issue, user) the projection has seen, the user as `md5(user_id)` (16 bytes whatever its
 * length), and `issues.users` their count, kept by the same round that counts `count`. The
 * backfill counts the users of the events still stored: an issue whose older events retention
 * deleted starts from the users of the rest.
 *
 * No foreign key to `issues` (issues are never deleted, and each would cost a trigger call per
 * row, see migration 0014), and no index on `users`: the count's updates stay HOT, as `count`'s
 * do, and `sort=users` reads one project's issues as `sort=times_seen` does.
 */
export const ISSUE_USERS_MIGRATION: Migration = {
  version: 25,
  name: 'issue-users',
  sql: /* sql */ `
alter table issues add column users bigint not null default 0;

create table issue_users (
  issue_id uuid not null,
  user_hash uuid not null,
  primary key (issue_id, user_hash)
);

insert into issue_users (issue_id, user_hash)
  select distinct issue_id, md5(user_id)::uuid from events
  where issue_id is not null and user_id is not null;
update issues i set users = u.users
  from (select issue_id, count(*) as users from issue_users group by issue_id) u
  where i.id = u.issue_id;
`,
}
