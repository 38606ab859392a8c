import type { Migration } from './migration'

/**
 * Issues, events and spans. User-supplied strings (up to 1,024 characters, 4 bytes each in
 * UTF-8) are indexed through md5() so no entry can exceed the ~2.7 kB btree row limit; readers
 * filter on `md5(col) = md5($n) and col = $n`.
 */
export const EVENTS_MIGRATION: Migration = {
  version: 2,
  name: 'events',
  sql: /* sql */ `
create table issues (
  id uuid primary key default gen_random_uuid(),
  legacy_id bigint generated always as identity unique,
  project_id uuid not null references projects (id) on delete cascade,
  hash text not null,
  grouping_key text not null,
  title text not null,
  level text not null,
  status text not null default 'unresolved',
  count bigint not null,
  first_seen_at timestamptz not null,
  last_seen_at timestamptz not null,
  first_release text,
  last_release text,
  latest_event_id uuid
);
-- hash is the engine's SHA-256 hex of the grouping key: 64 characters, safe to index raw.
create unique index issues_project_hash_key on issues (project_id, hash);
create index issues_project_status_idx on issues (project_id, status, last_seen_at desc);

create table events (
  id uuid primary key,
  legacy_id bigint generated always as identity unique,
  project_id uuid not null references projects (id) on delete cascade,
  event_type text not null,
  level text,
  message text,
  fingerprint text,
  occurred_at timestamptz not null,
  received_at timestamptz not null,
  environment text,
  release text,
  trace_id text,
  request_id text,
  session_id text,
  user_id text,
  transaction_name text,
  duration_ms double precision,
  issue_id uuid references issues (id) on delete set null,
  payload jsonb not null
);
create index events_project_type_time_idx on events (project_id, event_type, occurred_at desc);
create index events_project_trace_idx on events (project_id, md5(trace_id))
  where trace_id is not null;
create index events_project_request_idx on events (project_id, md5(request_id))
  where request_id is not null;
create index events_project_session_idx on events (project_id, md5(session_id))
  where session_id is not null;
create index events_issue_idx on events (issue_id, occurred_at desc) where issue_id is not null;

create table spans (
  id uuid primary key,
  legacy_id bigint generated always as identity unique,
  project_id uuid not null references projects (id) on delete cascade,
  trace_id text,
  span_id text,
  parent_span_id text,
  name text not null,
  kind text,
  started_at timestamptz not null,
  ended_at timestamptz,
  duration_ms double precision,
  environment text,
  release text,
  received_at timestamptz not null,
  payload jsonb not null
);
create index spans_project_trace_idx on spans (project_id, md5(trace_id)) where trace_id is not null;
`,
}
