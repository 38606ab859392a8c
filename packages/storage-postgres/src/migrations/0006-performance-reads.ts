import type { Migration } from './migration'

/**
 * Performance reads: the HTTP status code of transactions and the value of metrics as
 * columns (filled at write time from `context`), an index per metric name and time, and one of
 * root spans (the trace list) newest first.
 */
export const PERFORMANCE_READS_MIGRATION: Migration = {
  version: 6,
  name: 'performance-reads',
  sql: /* sql */ `
alter table events
  add column status_code integer,
  add column value double precision;

create index events_project_metric_idx on events (project_id, md5(message), occurred_at)
  where event_type = 'metric';

create index spans_project_roots_idx on spans (project_id, started_at desc, id desc)
  where parent_span_id is null;
create index spans_project_trace_start_idx on spans (project_id, md5(trace_id), started_at, id)
  where trace_id is not null;
drop index spans_project_trace_idx;
`,
}
