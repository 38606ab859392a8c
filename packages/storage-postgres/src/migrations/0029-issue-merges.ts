import type { Migration } from './migration'

/**
 * Merged issues (docs/issues.md#merging-issues): `issue_merges` keeps, for every issue merged
 * into another, its fingerprint's hash and its old id, and names the issue both now belong to.
 * The projection follows `(project_id, hash)` to it, so later events of the fingerprint join the
 * kept issue; the read API answers the old id (`merged_id`) with a pointer to it. A kept issue
 * merged in turn hands its rows on (`issue_merges_issue_idx`), so a row never points at a merged
 * issue; one deleted (with its project) takes its rows along.
 */
export const ISSUE_MERGES_MIGRATION: Migration = {
  version: 29,
  name: 'issue-merges',
  sql: /* sql */ `
create table issue_merges (
  project_id uuid not null references projects (id) on delete cascade,
  hash text not null,
  merged_id uuid not null,
  issue_id uuid not null references issues (id) on delete cascade,
  merged_at timestamptz not null,
  primary key (project_id, hash)
);
create unique index issue_merges_merged_idx on issue_merges (merged_id);
create index issue_merges_issue_idx on issue_merges (issue_id);

alter table issue_history drop constraint issue_history_kind_check;
alter table issue_history add constraint issue_history_kind_check
  check (kind in ('status', 'assignee', 'comment', 'comment_deleted', 'ignore_met', 'merge'));
`,
}
