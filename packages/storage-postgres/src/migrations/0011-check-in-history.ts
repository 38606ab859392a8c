import type { Migration } from './migration'

/**
 * A monitor's check-in history: `GET …/monitors/:monitor_id/check_ins` pages by
 * (occurred_at desc, id desc). With `id` in the index the page is one index range scan in that
 * order, ties on `occurred_at` included, with no sort; it replaces the index of migration 3.
 */
export const CHECK_IN_HISTORY_MIGRATION: Migration = {
  version: 11,
  name: 'check-in-history',
  sql: /* sql */ `
create index check_ins_monitor_time_id_idx on check_ins (monitor_id, occurred_at desc, id desc);
drop index check_ins_monitor_time_idx;
`,
}
