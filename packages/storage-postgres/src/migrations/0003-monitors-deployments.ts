import type { Migration } from './migration'

/**
 * Monitors with their check-in history, and deployments. Their natural keys hold strings of up
 * to 1,024 characters, so the unique indexes are over md5() of each part.
 */
export const MONITORS_DEPLOYMENTS_MIGRATION: Migration = {
  version: 3,
  name: 'monitors_deployments',
  sql: /* sql */ `
create table monitors (
  id uuid primary key default gen_random_uuid(),
  project_id uuid not null references projects (id) on delete cascade,
  slug text not null,
  environment text not null,
  -- Health: set by 'ok' and 'error' check-ins, null until the first of them.
  status text check (status in ('ok', 'error')),
  status_at timestamptz,
  last_status text not null,
  last_check_in_at timestamptz not null,
  expected_interval_seconds integer not null,
  last_release text,
  last_duration_ms double precision,
  check_in_count bigint not null,
  created_at timestamptz not null,
  updated_at timestamptz not null
);
create unique index monitors_project_slug_environment_key
  on monitors (project_id, md5(slug), md5(environment));

create table check_ins (
  id uuid primary key default gen_random_uuid(),
  monitor_id uuid not null references monitors (id) on delete cascade,
  project_id uuid not null references projects (id) on delete cascade,
  slug text not null,
  status text not null,
  environment text not null,
  release text,
  occurred_at timestamptz not null,
  received_at timestamptz not null,
  duration_ms double precision,
  trace_id text,
  request_id text,
  -- The normalised check-in; null for check_in events, whose payload is the event's.
  payload jsonb,
  source text not null check (source in ('check_in', 'event')),
  event_id uuid references events (id) on delete cascade
);
create index check_ins_monitor_time_idx on check_ins (monitor_id, occurred_at desc);
create index check_ins_event_idx on check_ins (event_id) where event_id is not null;

create table deployments (
  id uuid primary key default gen_random_uuid(),
  legacy_id bigint generated always as identity unique,
  project_id uuid not null references projects (id) on delete cascade,
  repository text not null,
  environment text not null,
  release text not null,
  commit_sha text not null,
  branch text,
  deployed_at timestamptz not null,
  pull_request_number text,
  pull_request_url text,
  release_url text,
  compare_url text,
  workflow_run_url text,
  deployment_url text,
  release_tag text,
  github jsonb,
  payload jsonb not null,
  source text not null check (source in ('api', 'event')),
  created_at timestamptz not null,
  updated_at timestamptz not null
);
create unique index deployments_project_repository_environment_release_key
  on deployments (project_id, md5(repository), md5(environment), md5(release));
create index deployments_project_deployed_at_idx on deployments (project_id, deployed_at desc);
`,
}
