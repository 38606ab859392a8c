import type { Migration } from './migration'

/**
 * Dashboard sessions: the cookie carries a random session id; only its SHA-256 digest
 * is stored. A session belongs to the access token it was opened with (`token_digest`): deleting
 * the token — a rotation — deletes its sessions, and the foreign key's lock keeps a sign-in racing
 * a rotation from leaving a session behind. `idle_expires_at` is never after `expires_at`, so
 * pruning needs one index.
 */
export const DASHBOARD_SESSIONS_MIGRATION: Migration = {
  version: 10,
  name: 'dashboard-sessions',
  sql: /* sql */ `
create table dashboard_sessions (
  digest text primary key,
  id uuid not null unique,
  user_id uuid not null references users (id) on delete cascade,
  token_digest text not null references user_tokens (digest) on delete cascade,
  created_at timestamptz not null,
  last_seen_at timestamptz not null,
  idle_expires_at timestamptz not null,
  expires_at timestamptz not null,
  user_agent text,
  ip text,
  check (idle_expires_at <= expires_at)
);
create index dashboard_sessions_user_id_idx on dashboard_sessions (user_id);
create index dashboard_sessions_token_digest_idx on dashboard_sessions (token_digest);
create index dashboard_sessions_idle_expires_at_idx on dashboard_sessions (idle_expires_at);
`,
}
