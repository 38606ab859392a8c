import type { Migration } from './migration'

/**
 * The read API: regression bookkeeping on issues, and keyset indexes for the issue
 * inbox (last_seen_at, id) and the event list (occurred_at, id), newest first.
 */
export const ISSUE_READS_MIGRATION: Migration = {
  version: 5,
  name: 'issue-reads',
  sql: /* sql */ `
alter table issues
  add column regression_count bigint not null default 0,
  add column regressed_in_release text,
  add column regressed_at timestamptz;

create index issues_project_activity_idx on issues (project_id, last_seen_at desc, id desc);
create index issues_project_status_activity_idx
  on issues (project_id, status, last_seen_at desc, id desc);
drop index issues_project_status_idx;

create index events_project_time_idx on events (project_id, occurred_at desc, id desc);
create index events_project_user_idx on events (project_id, md5(user_id))
  where user_id is not null;
`,
}
