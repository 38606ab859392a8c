import type { Migration } from './migration'

/**
 * The issue search's `release:`, `environment:` and `user.id:` terms
 * (docs/issues.md#how-a-search-runs) ask whether an issue has an event with a value: one probe
 * of these indexes per issue. `events_issue_idx` alone made it a read of the issue's events,
 * newest first until one matched: all of them for a value that matches none, or for a negated
 * term the issue passes (over a second for 2,000 issues at a million events). Through md5, as
 * every index on a user string (migration 0002); only the events of an issue are indexed, and
 * an issue's many events of one release or environment share an entry (btree deduplication).
 */
export const ISSUE_SEARCH_INDEXES_MIGRATION: Migration = {
  version: 30,
  name: 'issue-search-indexes',
  sql: /* sql */ `
create index events_issue_release_idx on events (issue_id, md5(release))
  where issue_id is not null and release is not null;
create index events_issue_environment_idx on events (issue_id, md5(environment))
  where issue_id is not null and environment is not null;
create index events_issue_user_idx on events (issue_id, md5(user_id))
  where issue_id is not null and user_id is not null;
`,
}
