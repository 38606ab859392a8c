import type { Migration } from './migration'

/**
 * Index-only scans for the release health reads (docs/benchmarks.md, "Release health"): one
 * release's minutes and user hours over a window, in all environments or one, read from the
 * index alone instead of one heap visit per row (30 days of one release in three environments
 * are ~96,000 minute rows and ~88,000 user hours). The primary keys lead with the environment,
 * so a read of every environment could not range-scan them by time.
 */
export const RELEASE_READ_INDEXES_MIGRATION: Migration = {
  version: 25,
  name: 'release-read-indexes',
  sql: /* sql */ `
create index session_minutes_release_idx on session_minutes (project_id, release, minute)
  include (environment, healthy, errored, abnormal, crashed);
create index session_users_release_idx on session_users (project_id, release, hour)
  include (environment, did, crashed);
`,
}
