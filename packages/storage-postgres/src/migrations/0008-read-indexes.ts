import type { Migration } from './migration'

/**
 * Faster performance reads and text search (50 ms with a million events):
 *
 * - `name_key` (md5 of the transaction name, or of the metric name, as a uuid) and `is_error`
 *   (status code ≥ 500 or level error/fatal) are filled at write time for transactions and
 *   metrics, so both reads are index-only scans over small covering indexes. User text cannot
 *   be an index column or INCLUDE column here: up to 4 kB would exceed a btree entry.
 * - A trigram index on `events.message` makes `q` substring search independent of the table
 *   size, when the pg_trgm extension is available (PostgreSQL's contrib; PGlite loads it when
 *   opened by `openPgliteStore`). Without it search still works, scanning newest first.
 */
export const READ_INDEXES_MIGRATION: Migration = {
  version: 8,
  name: 'read-indexes',
  sql: /* sql */ `
alter table events
  add column name_key uuid,
  add column is_error boolean;

update events set
  name_key = md5(coalesce(transaction_name, message, ''))::uuid,
  is_error = coalesce(status_code >= 500, false) or coalesce(lower(level) in ('error', 'fatal'), false)
 where event_type = 'transaction';
update events set name_key = md5(coalesce(message, ''))::uuid where event_type = 'metric';

create index events_transactions_cover_idx on events (project_id, occurred_at)
  include (name_key, duration_ms, is_error) where event_type = 'transaction';
create index events_metrics_cover_idx on events (project_id, name_key, occurred_at)
  include (value) where event_type = 'metric';
drop index events_project_metric_idx;

do $$
begin
  create extension if not exists pg_trgm;
exception when others then
  raise notice 'pg_trgm is not available: text search scans newest first';
end
$$;
do $$
begin
  if exists (select 1 from pg_extension where extname = 'pg_trgm') then
    execute 'create index events_message_trgm_idx on events using gin (message gin_trgm_ops)';
  end if;
end
$$;
`,
}
