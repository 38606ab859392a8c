import type { Migration } from './migration'

/**
 * The analytics outbox: events and spans accepted while the analytics store is enabled
 * are queued here in the transaction that stores them, and removed once ClickHouse acknowledged
 * them. `lease`/`leased_until` mark the records a drainer holds; `available_at` delays a retry.
 */
export const ANALYTICS_OUTBOX_MIGRATION: Migration = {
  version: 7,
  name: 'analytics-outbox',
  sql: /* sql */ `
create table analytics_outbox (
  seq bigint generated always as identity primary key,
  kind text not null check (kind in ('event', 'span')),
  row jsonb not null,
  enqueued_at timestamptz not null default now(),
  available_at timestamptz not null default now(),
  attempts integer not null default 0,
  lease uuid,
  leased_until timestamptz
);
`,
}
