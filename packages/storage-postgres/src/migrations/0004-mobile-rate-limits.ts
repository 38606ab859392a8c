import type { Migration } from './migration'

/**
 * Mobile tokens by parent key, project-level rate-limit overrides, and the shared fixed-window
 * counters every server instance increments (docs/rate-limits.md).
 */
export const MOBILE_RATE_LIMITS_MIGRATION: Migration = {
  version: 4,
  name: 'mobile-rate-limits',
  sql: /* sql */ `
create index api_keys_parent_key_id_idx on api_keys (parent_key_id) where parent_key_id is not null;

alter table projects
  add column rate_limit_requests integer,
  add column rate_limit_period_seconds integer,
  add column rate_limit_auth_failures integer;

-- One row per (credential and endpoint, or client IP) and fixed window. Rows are only ever
-- incremented in place (insert … on conflict do update), so the row is the single source of truth
-- for every instance; windows that ended are pruned. Unlogged: an increment writes no WAL, so its
-- commit waits for no disk flush (counts are lost only if PostgreSQL itself crashes).
create unlogged table rate_limit_windows (
  key text not null,
  window_start bigint not null,
  count bigint not null,
  expires_at timestamptz not null,
  primary key (key, window_start)
);
create index rate_limit_windows_expires_at_idx on rate_limit_windows (expires_at);
`,
}
