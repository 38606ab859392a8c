// SQL shared by the statements that evaluate alert rules in the transaction of a change (see
// docs/alerts.md, "How a notification is made"). Each evaluating statement ends in a CTE named
// `fired`: one row per (rule, subject) that fires, with the columns `rule_id`, `rule_name`,
// `trigger`, `quiet_seconds`, `project_id`, `subject_id` and `payload` (the AlertPayload).

/** A timestamptz as the read API shows it: ISO 8601 in UTC with milliseconds. */
export const iso = (expr: string) =>
  `to_char(${expr} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`

/**
 * True when rule `rule`'s quiet period for `subject` has passed at `now` (or it never fired for
 * it): `alert_rule_subjects` holds when it last fired.
 */
export const quietPassed = (rule: string, subject: string, now: string) => /* sql */ `not exists (
    select 1 from alert_rule_subjects q where q.rule_id = ${rule}.id and q.subject_id = ${subject}
      and q.last_fired_at > ${now} - make_interval(secs => ${rule}.quiet_seconds))`

/**
 * The CTEs after `fired`: the rules' quiet periods start at `now` (only rules that have one keep
 * a row), and one pending delivery per (fired rule, channel of the rule), due at once, with the
 * rule's and channel's names and the channel's type copied (CTE `recorded`, one row each).
 */
export const recordFired = (now: string) => /* sql */ `, quiet as (
  insert into alert_rule_subjects as q (rule_id, subject_id, last_fired_at)
  select rule_id, subject_id, ${now} from fired where quiet_seconds > 0
    order by rule_id, subject_id
  on conflict (rule_id, subject_id) do update set last_fired_at = excluded.last_fired_at
), recorded as (
  insert into alert_deliveries (id, project_id, rule_id, rule_name, channel_id, channel_name,
    channel_type, trigger, subject_id, payload, status, next_attempt_at, created_at)
  select gen_random_uuid(), f.project_id, f.rule_id, f.rule_name, c.id, c.name, c.type,
    f.trigger, f.subject_id, f.payload, 'pending', ${now}, ${now}
    from fired f
    join alert_rule_channels rc on rc.rule_id = f.rule_id
    join alert_channels c on c.id = rc.channel_id
  returning 1
)`

/** The AlertPayload `monitor` object of the `monitors` row (or CTE row) `m`. */
export const monitorPayload = (m: string, state: string, missedAfter?: string) =>
  /* sql */ `jsonb_build_object('id', ${m}.id, 'slug', ${m}.slug,
    'environment', ${m}.environment, 'state', ${state}, 'last_status', ${m}.last_status,
    'last_check_in_at', ${iso(`${m}.last_check_in_at`)},
    'expected_interval_seconds', ${m}.expected_interval_seconds${
      missedAfter ? `, 'missed_after', ${iso(missedAfter)}` : ''
    })`
