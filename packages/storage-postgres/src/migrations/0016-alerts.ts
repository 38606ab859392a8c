import type { Migration } from './migration'

/**
 * Alerts: a project's channels and rules, the deliveries they cause, and the state
 * that makes every notification happen once.
 *
 * - `alert_deliveries` is the outbox of notifications: one row per (cause, rule, channel),
 *   inserted in the transaction of the state change that caused it; its `id` is the delivery id
 *   receivers deduplicate on (`X-Tis-Delivery`), stable across retries. Background work claims
 *   due rows with a lease (`lease_until`, `for update skip locked`), so a process killed
 *   mid-delivery only delays it and several processes never claim one row at once.
 * - `issues.alerted` and `issues.alerted_regressions` say which of an issue's transitions
 *   (opened, each regression) have been evaluated against the rules; `monitors.alert_state` is
 *   the monitor state last evaluated (`ok`, `error`, `missed`). Evaluation compares them with
 *   the row and moves them on in the same statement, so it is idempotent whatever retries.
 * - `alert_rule_subjects` holds when a rule last fired for one issue or monitor: its quiet period.
 * - `alert_spike_counts` counts the arrivals of issues per minute for spike rules.
 *
 * Existing issues and monitors count as evaluated, so an upgrade alerts nobody about the past.
 * The missed-deadline scan reads `monitors` whole: a project has a few of them, not millions
 * (and the audited read-model indexes stay as they are).
 */
export const ALERTS_MIGRATION: Migration = {
  version: 16,
  name: 'alerts',
  sql: /* sql */ `
create table alert_channels (
  id uuid primary key,
  project_id uuid not null references projects (id) on delete cascade,
  name text not null,
  type text not null check (type in ('webhook', 'slack', 'email')),
  -- webhook and slack: the URL posted to; email: null.
  url text,
  -- email: the recipients, comma-separated addresses; else null.
  email_to text,
  -- webhook: the HMAC-SHA256 key of X-Tis-Signature (shown once, in the 201); else null.
  secret text,
  created_at timestamptz not null
);
create index alert_channels_project_idx on alert_channels (project_id, created_at, id);

create table alert_rules (
  id uuid primary key,
  project_id uuid not null references projects (id) on delete cascade,
  name text not null,
  trigger text not null check (trigger in ('new_issue', 'regression', 'spike',
    'monitor_missed', 'monitor_failed', 'monitor_recovered')),
  environment text,
  level text,
  -- spike: more than threshold events in window_seconds.
  threshold integer,
  window_seconds integer,
  quiet_seconds integer not null,
  created_at timestamptz not null
);
create index alert_rules_project_trigger_idx on alert_rules (project_id, trigger);

create table alert_rule_channels (
  rule_id uuid not null references alert_rules (id) on delete cascade,
  channel_id uuid not null references alert_channels (id) on delete cascade,
  -- the channel's place in the rule's channel_ids, as given when the rule was created.
  position integer not null default 0,
  primary key (rule_id, channel_id)
);
create index alert_rule_channels_channel_idx on alert_rule_channels (channel_id);

create table alert_rule_subjects (
  rule_id uuid not null references alert_rules (id) on delete cascade,
  -- The issue's or monitor's id.
  subject_id uuid not null,
  last_fired_at timestamptz not null,
  primary key (rule_id, subject_id)
);

-- Spike rules count an issue's arrivals per minute of received_at, environment and level ('' for
-- none), written only for issues of projects with a spike rule: a rule's check sums at most
-- window / 60 + 1 rows per (environment, level), whatever the storm. Rows older than the longest
-- window (a day) are deleted as their issue is seen again.
create table alert_spike_counts (
  issue_id uuid not null references issues (id) on delete cascade,
  minute timestamptz not null,
  environment text not null,
  level text not null,
  count bigint not null
);
create unique index alert_spike_counts_key
  on alert_spike_counts (issue_id, minute, md5(environment), md5(level));

create table alert_deliveries (
  id uuid primary key,
  project_id uuid not null references projects (id) on delete cascade,
  -- null for a test delivery, or once the rule is deleted (the log stays).
  rule_id uuid references alert_rules (id) on delete set null,
  rule_name text,
  -- null once the channel is deleted: a pending delivery then fails.
  channel_id uuid references alert_channels (id) on delete set null,
  channel_name text not null,
  channel_type text not null,
  -- a rule's trigger, or 'test'.
  trigger text not null,
  -- the issue or monitor it is about; null for a test.
  subject_id uuid,
  -- the facts the message is rendered from, as they were when it was recorded.
  payload jsonb not null,
  status text not null check (status in ('pending', 'delivered', 'failed')),
  attempts integer not null default 0,
  next_attempt_at timestamptz not null,
  lease_until timestamptz,
  last_error text,
  response_code integer,
  created_at timestamptz not null,
  delivered_at timestamptz
);
create index alert_deliveries_due_idx on alert_deliveries (next_attempt_at)
  where status = 'pending';
create index alert_deliveries_project_idx on alert_deliveries (project_id, created_at desc, id desc);

alter table issues add column alerted boolean not null default true;
alter table issues alter column alerted set default false;
alter table issues add column alerted_regressions bigint not null default 0;
update issues set alerted_regressions = regression_count where regression_count > 0;

alter table monitors add column alert_state text check (alert_state in ('ok', 'error', 'missed'));
update monitors set alert_state = case
  when status = 'error' then 'error'
  -- The deadline passed: written so that a far-future last check-in cannot overflow.
  when last_check_in_at < now() - make_interval(secs => expected_interval_seconds
    + greatest(expected_interval_seconds / 2.0, 30)) then 'missed'
  else 'ok' end;

-- A missed deadline is a row of the monitor's history too, written by the scheduler.
alter table check_ins drop constraint check_ins_source_check;
alter table check_ins add constraint check_ins_source_check
  check (source in ('check_in', 'event', 'scheduler'));
`,
}
