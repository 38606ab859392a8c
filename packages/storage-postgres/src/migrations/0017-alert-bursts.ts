import type { Migration } from './migration'

/**
 * Alerts that stay cheap under storms (bench: ten rules within 5% of none).
 *
 * - `issues.spike_tracked`: whether the arrivals are counted in `alert_spike_counts`.
 *   An issue is tracked from the round its total count passes the lowest threshold of its
 *   project's spike rules (no rule can fire for it before: a window never holds more events than
 *   the issue has); that round counts its earlier arrivals of the last day from `events`. Issues
 *   that already have counted arrivals are tracked.
 * - `alert_rule_bursts`: what a rule sent in one minute. A rule sends at most ten notifications
 *   a minute one by one; the causes beyond are folded into one summary per minute (`folded`,
 *   with the first ten subjects), which background work records as one delivery per channel
 *   once the minute is over (`summarized` counts the folded causes already in a summary).
 */
export const ALERT_BURSTS_MIGRATION: Migration = {
  version: 17,
  name: 'alert-bursts',
  sql: /* sql */ `
alter table issues add column spike_tracked boolean not null default false;
update issues set spike_tracked = true
 where id in (select distinct issue_id from alert_spike_counts);

create table alert_rule_bursts (
  rule_id uuid not null references alert_rules (id) on delete cascade,
  minute timestamptz not null,
  -- causes sent one by one in this minute (at most ten).
  sent integer not null,
  -- causes beyond the ten, and how many of them a summary delivery already carries.
  folded bigint not null default 0,
  summarized bigint not null default 0,
  -- the first ten folded causes' subjects (issue or monitor objects) not yet summarized.
  subjects jsonb not null default '[]',
  primary key (rule_id, minute)
);
create index alert_rule_bursts_due_idx on alert_rule_bursts (minute) where folded > summarized;
`,
}
