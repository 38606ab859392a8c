import type { Migration } from './migration'

/**
 * Retention: a project may keep its telemetry for its own number of days
 * (`projects.retention_days`; null follows `SERVICE_RETENTION_DAYS`, 0 keeps everything), and
 * the pass that deletes expired rows (`src/retention.ts`) needs to find a project's oldest
 * spans without reading them all: `spans_project_started_idx` (events have
 * `events_project_time_idx`, check-ins `check_ins_monitor_time_idx`). The index is written by
 * the projection, behind the ingest log, never on the acknowledgement's path.
 * `issues.events_expired_at` is the cutoff of the pass that found every event of the issue
 * expired: the issue still lists, marked, until a newer event arrives (`last_seen_at` passes it).
 */
export const RETENTION_MIGRATION: Migration = {
  version: 19,
  name: 'retention',
  sql: /* sql */ `
alter table projects add column retention_days integer
  check (retention_days between 0 and 36500);
alter table issues add column events_expired_at timestamptz;
create index spans_project_started_idx on spans (project_id, started_at);
`,
}
