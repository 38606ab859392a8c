import type { Migration } from './migration'

/**
 * The ingest log keeps its records inline and uncompressed up to a page (`toast_tuple_target`
 * 8160; PostgreSQL's default, about 2 kB, compressed every larger record with pglz). A log entry
 * lives only until the projection has read it and its day's partition is dropped, so compressing
 * it bought no lasting disk and cost PostgreSQL about a sixth of its processor time per request
 * for a 2.6 kB Sentry event (docs/benchmarks.md). Records larger than a page are still toasted.
 * Existing partitions change here; `maintainLogPartitions` creates new ones with the setting.
 */
export const INGEST_LOG_INLINE_MIGRATION: Migration = {
  version: 20,
  name: 'ingest-log-inline',
  sql: /* sql */ `
do $$
declare
  part regclass;
begin
  for part in select inhrelid::regclass from pg_inherits where inhparent = 'ingest_log'::regclass
  loop
    execute format('alter table %s set (toast_tuple_target = 8160)', part);
  end loop;
end
$$;
`,
}
