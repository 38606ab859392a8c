import type { Migration } from './migration'

/**
 * The ingest log: a 201 means the record is committed here, in an append-only table
 * with only the indexes acceptance and its consumers need; the read model (issues, events, spans,
 * monitors, check-ins, event-implied deployments, the analytics outbox) is projected behind it.
 *
 * - `ingest_log` is partitioned by day of `received_at`; the partitions are created ahead of
 *   time and dropped once every consumer has read them (`src/log/partitions.ts`). The default
 *   partition only catches a clock far outside the prepared days.
 * - `seq` is the record's `legacy_id`; events and spans take theirs from the same sequence, so
 *   a projected row keeps the number its 201 answered.
 * - `xid` is the writing transaction: consumers read in `(xid, seq)` order and only below the
 *   oldest running transaction, so a row that commits late is never skipped (write-path.md,
 *   "Sequence gaps").
 * - `ingest_keys` holds the idempotency key (the client's `event_id`, or a span's id derived
 *   from its trace and span ids) of every record that has one: the one unique index acceptance
 *   needs, outside the partitions so it outlives them. The ids stored before the log are
 *   copied in, so their repeats still answer as duplicates (`seq` is null for check-ins).
 * - A project's entries reference it, so an entry of an unknown project is never acknowledged.
 * - `ingest_log_failures` keeps an entry the projection cannot apply (a data or integrity error
 *   that would recur), with the error, so one bad entry cannot stop the projection.
 * - `log_consumers` holds each consumer's position (`projection`, later `analytics`), moved in
 *   the same transaction as the writes it made.
 */
export const INGEST_LOG_MIGRATION: Migration = {
  version: 12,
  name: 'ingest-log',
  sql: /* sql */ `
create sequence ingest_log_seq as bigint;
select setval('ingest_log_seq', greatest(
  (select coalesce(max(legacy_id), 0) from events),
  (select coalesce(max(legacy_id), 0) from spans)) + 1, false);

alter table events alter column legacy_id drop identity;
alter table events alter column legacy_id set default nextval('ingest_log_seq');
alter table spans alter column legacy_id drop identity;
alter table spans alter column legacy_id set default nextval('ingest_log_seq');

create table ingest_log (
  seq bigint not null,
  xid xid8 not null default pg_current_xact_id(),
  project_id uuid not null references projects (id) on delete cascade,
  id uuid not null,
  kind text not null check (kind in ('event', 'span', 'check_in')),
  received_at timestamptz not null,
  record jsonb not null
) partition by range (received_at);
create table ingest_log_default partition of ingest_log default;
create index ingest_log_position_idx on ingest_log (xid, seq);

-- Keys per kind, as the read model's tables were: an event, a span and a check-in may carry the
-- same event_id without repeating each other.
create table ingest_keys (
  kind text not null,
  key uuid not null,
  project_id uuid not null,
  id uuid not null,
  seq bigint,
  primary key (key, kind)
);
-- Records stored before the log answer their repeats as duplicates too.
insert into ingest_keys (kind, key, project_id, id, seq)
  select 'event', id, project_id, id, legacy_id from events
  union all select 'span', id, project_id, id, legacy_id from spans
  union all select 'check_in', id, project_id, id, null from check_ins
  on conflict (key, kind) do nothing;

-- Entries the projection could not apply (a data or integrity error that would recur on every
-- attempt), kept with the error instead of halting the projection behind them.
create table ingest_log_failures (
  seq bigint not null,
  xid xid8 not null,
  project_id uuid not null,
  id uuid not null,
  kind text not null,
  received_at timestamptz not null,
  record jsonb not null,
  consumer text not null,
  error text not null,
  failed_at timestamptz not null
);

create table log_consumers (
  name text primary key,
  xid xid8 not null,
  seq bigint not null,
  consumed bigint not null default 0,
  updated_at timestamptz not null
);
insert into log_consumers (name, xid, seq, updated_at) values ('projection', '0', 0, now());
`,
}
