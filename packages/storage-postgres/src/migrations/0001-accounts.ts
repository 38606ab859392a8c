import type { Migration } from './migration'

/** Users, their access tokens, projects, members and credentials (API keys and mobile tokens). */
export const ACCOUNTS_MIGRATION: Migration = {
  version: 1,
  name: 'accounts',
  sql: /* sql */ `
create table users (
  id uuid primary key,
  email text not null,
  created_at timestamptz not null
);
-- Emails are unique case-insensitively; md5() bounds the index entry whatever the length.
create unique index users_email_key on users (md5(lower(email)));

create table user_tokens (
  digest text primary key,
  user_id uuid not null references users (id) on delete cascade,
  created_at timestamptz not null
);
create index user_tokens_user_id_idx on user_tokens (user_id);

create table projects (
  id uuid primary key,
  name text not null,
  integration_kind text not null,
  status text not null default 'active' check (status in ('active', 'archived')),
  owner_id uuid not null references users (id),
  created_at timestamptz not null,
  archived_at timestamptz
);
create index projects_owner_id_idx on projects (owner_id, created_at);
create index projects_created_at_idx on projects (created_at, id);

create table project_members (
  project_id uuid not null references projects (id) on delete cascade,
  user_id uuid not null references users (id) on delete cascade,
  created_at timestamptz not null,
  primary key (project_id, user_id)
);
create index project_members_user_id_idx on project_members (user_id);

-- API keys and mobile ingest tokens; the mobile binding columns stay null for API keys.
create table api_keys (
  id uuid primary key,
  project_id uuid not null references projects (id) on delete cascade,
  kind text not null default 'api_key' check (kind in ('api_key', 'mobile')),
  name text not null default '',
  token_digest text not null unique,
  created_at timestamptz not null,
  revoked_at timestamptz,
  expires_at timestamptz,
  platform text,
  service text,
  environment text,
  release text,
  session_id text,
  allowed_event_types text[],
  parent_key_id uuid references api_keys (id) on delete set null
);
create index api_keys_project_id_idx on api_keys (project_id, kind, created_at);
`,
}
