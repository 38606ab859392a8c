import type { Migration } from './migration'

/**
 * An outcome-count rollup: sessions per (project, release, environment, `key`) by outcome.
 * `session_minutes` and `session_hours` differ only in their key, `minute` or `hour`. Both
 * helpers' text is part of an applied migration: it must stay byte for byte as it is.
 */
function countsTable(table: string, key: string): string {
  return `create table ${table} (
  project_id uuid not null references projects (id) on delete cascade,
  release text not null,
  environment text not null,
  ${key} timestamptz not null,
  healthy integer not null default 0,
  errored integer not null default 0,
  abnormal integer not null default 0,
  crashed integer not null default 0,
  primary key (project_id, release, environment, ${key})
);`
}

/** A rollup's indexes: one release over time, and every release over time. */
function countsIndexes(table: string, key: string): string {
  return `create index ${table}_release_idx on ${table} (project_id, release, ${key});
create index ${table}_${key}_idx on ${table} (project_id, ${key});`
}

/**
 * Release health (docs/release-health.md). Session records are acknowledged on the ingest log
 * (`kind = 'session'`) and projected into:
 * - `session_states`: one row per session of single updates (the status machine's memory:
 *   counted, outcome, final), never read by a health query;
 * - `session_minutes`: sessions per (release, environment, minute started), by outcome; and
 *   `session_hours`, the same per hour, so a read over days sums hours and only its edges'
 *   minutes;
 * - `session_users`: one row per (release, environment, user): the hours (since the epoch,
 *   sorted) the user had a counted session in, and those with a crashed one. Exact distinct
 *   users over any window of whole hours, two binary searches (`width_bucket`) per user;
 * - `releases`: every (release, environment) seen in a session, an event or a deployment, with
 *   when, so a release without sessions is listed too.
 */
export const RELEASE_HEALTH_MIGRATION: Migration = {
  version: 24,
  name: 'release-health',
  sql: /* sql */ `
alter table ingest_log drop constraint ingest_log_kind_check;
alter table ingest_log add constraint ingest_log_kind_check
  check (kind in ('event', 'span', 'check_in', 'session'));

create table session_states (
  project_id uuid not null references projects (id) on delete cascade,
  sid text not null,
  release text not null,
  environment text not null,
  minute timestamptz not null,
  did text,
  counted boolean not null,
  outcome smallint not null,
  terminal boolean not null,
  seq bigint,
  errors integer not null,
  updated_at timestamptz not null,
  primary key (project_id, sid)
);
create index session_states_minute_idx on session_states (project_id, minute);

${countsTable('session_minutes', 'minute')}
-- One release in every environment (the primary key leads with the environment), and the
-- alert check's window over every release. Counts are not indexed: their updates stay HOT.
${countsIndexes('session_minutes', 'minute')}

${countsTable('session_hours', 'hour')}
${countsIndexes('session_hours', 'hour')}

create table session_users (
  project_id uuid not null references projects (id) on delete cascade,
  release text not null,
  environment text not null,
  did text not null,
  -- hours since the epoch, sorted, distinct: when the user had a counted session, a crashed one.
  hours integer[] not null,
  crashed_hours integer[] not null default '{}',
  primary key (project_id, release, environment, did)
);

create table releases (
  project_id uuid not null references projects (id) on delete cascade,
  version text not null,
  environment text not null,
  first_seen_at timestamptz not null,
  last_seen_at timestamptz not null,
  primary key (project_id, version, environment)
);
create index releases_last_seen_idx on releases (project_id, last_seen_at desc, version);

-- Alerts: a release's crash-free sessions below a threshold (a fraction, so thresholds are no
-- longer integers only), and which releases each such rule has seen below it.
alter table alert_rules drop constraint alert_rules_trigger_check;
alter table alert_rules add constraint alert_rules_trigger_check check (trigger in (
  'new_issue', 'regression', 'spike', 'monitor_missed', 'monitor_failed', 'monitor_recovered',
  'release_crash_free_below'));
alter table alert_rules alter column threshold type double precision;
create table alert_release_states (
  rule_id uuid not null references alert_rules (id) on delete cascade,
  release text not null,
  -- the rule's environment, '' for all environments together.
  environment text not null,
  below boolean not null,
  changed_at timestamptz not null,
  primary key (rule_id, release, environment)
);

-- Releases already known from events and deployments.
insert into releases (project_id, version, environment, first_seen_at, last_seen_at)
select project_id, release, environment, min(at), max(at) from (
  select project_id, release, environment, deployed_at as at from deployments
  union all
  select project_id, release, coalesce(environment, 'production'), occurred_at from events
   where release is not null and event_type = 'error'
) known
 where release is not null and length(release) <= 200
 group by project_id, release, environment
on conflict do nothing;
`,
}
