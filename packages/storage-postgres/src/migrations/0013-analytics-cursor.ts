import type { Migration } from './migration'

/**
 * The analytics export follows the projection by cursor: instead of the projection
 * queueing every event and span in `analytics_outbox`, an `analytics` row in `log_consumers`
 * (created when a store opens with the analytics store enabled, at the log's head) follows the
 * projection's position, and a drainer leases a RANGE of the log at a time.
 *
 * - `lease`, `leased_until`: the one drainer holding the range after the position;
 *   `lease_xid`, `lease_seq`, `lease_entries`: where that range ends and how many entries it has,
 *   so `complete` moves the position there only while the lease is still this drainer's.
 * - `sent_xid`, `sent_seq`: the end of the furthest range ever handed out. Entries up to it may
 *   already be in the analytics store (a drainer died or lost its lease after inserting), so a
 *   later claim marks them as retries and the sink looks them up before sending them again.
 * - `attempts`: claims of the range at the position that ended without `complete`;
 *   `available_at`: a released range waits until then (backoff).
 * - `analytics_outbox` stays for records written with `writeBatch` outside the log and for
 *   what a previous version queued; its partial index on `lease` lets `complete` and `release`
 *   find a claim's rows without their seq range.
 */
export const ANALYTICS_CURSOR_MIGRATION: Migration = {
  version: 13,
  name: 'analytics-cursor',
  sql: /* sql */ `
alter table log_consumers
  add column lease uuid,
  add column leased_until timestamptz,
  add column lease_xid xid8,
  add column lease_seq bigint,
  add column lease_entries integer,
  add column sent_xid xid8,
  add column sent_seq bigint,
  add column attempts integer not null default 0,
  add column available_at timestamptz;

create index analytics_outbox_lease_idx on analytics_outbox (lease) where lease is not null;
`,
}
