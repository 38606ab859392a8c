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
export const quietPassed = (rule: string, subject: string, now: string) => /* sql */ `(
    ${rule}.quiet_seconds = 0 or not exists (
    select 1 from alert_rule_subjects q where q.rule_id = ${rule}.id and q.subject_id = ${subject}
      and q.last_fired_at > ${now} - make_interval(secs => ${rule}.quiet_seconds)))`

/** How many notifications a rule sends one by one in a minute; the rest are summarized. */
export const ALERT_BURST_LIMIT = 10

/** How many subjects a summary names (the first folded in its minute). */
export const ALERT_SUMMARY_SUBJECTS = 10

/**
 * The CTEs after `fired`: the rules' quiet periods start at `now` (only rules that have one keep
 * a row). Then each rule's causes, in subject order, go to its minute's budget
 * (`alert_rule_bursts`): while the rule has sent fewer than {@link ALERT_BURST_LIMIT} this
 * minute, a cause is one pending delivery per channel of the rule, due at once, with the rule's
 * and channel's names and the channel's type copied (CTE `recorded`, one row each); beyond, it
 * is folded into the minute's summary (its count, and the first subjects), which
 * {@link SUMMARIZE_BURSTS} records once the minute is over.
 */
export const recordFired = (now: string) => /* sql */ `, quiet as (
  insert into alert_rule_subjects as q (rule_id, subject_id, last_fired_at)
  select rule_id, subject_id, ${now} from fired where quiet_seconds > 0
    order by rule_id, subject_id
  on conflict (rule_id, subject_id) do update set last_fired_at = excluded.last_fired_at
), budget as (
  select r.rule_id, coalesce(b.sent, 0) as sent from (select distinct rule_id from fired) r
    left join alert_rule_bursts b on b.rule_id = r.rule_id and b.minute = date_trunc('minute', ${now})
), ranked as (
  select f.*, row_number() over (partition by f.rule_id order by f.subject_id) + u.sent as place
    from fired f join budget u on u.rule_id = f.rule_id
), burst as (
  insert into alert_rule_bursts as b (rule_id, minute, sent, folded, subjects)
  select rule_id, date_trunc('minute', ${now}),
    count(*) filter (where place <= ${ALERT_BURST_LIMIT}),
    count(*) filter (where place > ${ALERT_BURST_LIMIT}),
    coalesce(jsonb_agg(coalesce(payload -> 'issue', payload -> 'monitor', payload -> 'release')
      order by place)
      filter (where place > ${ALERT_BURST_LIMIT}
        and place <= ${ALERT_BURST_LIMIT + ALERT_SUMMARY_SUBJECTS}), '[]'::jsonb)
    from ranked group by rule_id order by rule_id
  on conflict (rule_id, minute) do update set sent = b.sent + excluded.sent,
    folded = b.folded + excluded.folded,
    subjects = case when jsonb_array_length(b.subjects) >= ${ALERT_SUMMARY_SUBJECTS}
      then b.subjects else coalesce((select jsonb_agg(x.v order by x.n) from jsonb_array_elements(
        b.subjects || excluded.subjects) with ordinality x(v, n)
        where x.n <= ${ALERT_SUMMARY_SUBJECTS}), '[]'::jsonb) end
), recorded as (
  insert into alert_deliveries (id, project_id, rule_id, rule_name, channel_id, channel_name,
    channel_type, trigger, subject_id, payload, status, next_attempt_at, created_at)
  select gen_random_uuid(), f.project_id, f.rule_id, f.rule_name, c.id, c.name, c.type,
    f.trigger, f.subject_id, f.payload, 'pending', ${now}, ${now}
    from ranked f
    join alert_rule_channels rc on rc.rule_id = f.rule_id
    join alert_channels c on c.id = rc.channel_id
   where f.place <= ${ALERT_BURST_LIMIT}
  returning 1
)`

/**
 * Records the summaries of the minutes that are over (before `$1`, now): for up to `$2` rule
 * minutes with causes folded and not yet summarized, one pending delivery per channel of the
 * rule whose payload is `summary: {count, since, until, issues | monitors}` (the causes folded
 * since the last summary of that minute, and the first of their subjects), then marks them
 * summarized; minutes older than a day with nothing left go. Rows are locked `skip locked`, so
 * several processes never summarize one minute twice; a cause folded late (by a transaction
 * that began in the minute and committed after its summary) gets a summary of its own at the
 * next pass. Resolves `recorded`.
 */
export const SUMMARIZE_BURSTS = /* sql */ `
with due as (
  select b.rule_id, b.minute, b.folded, b.summarized, b.subjects from alert_rule_bursts b
   where b.folded > b.summarized and b.minute < date_trunc('minute', $1::timestamptz)
   order by b.minute limit $2::int
   for update skip locked
), moved as (
  update alert_rule_bursts b set summarized = d.folded, subjects = '[]'::jsonb
    from due d where b.rule_id = d.rule_id and b.minute = d.minute
), expired as (
  delete from alert_rule_bursts b
   where b.minute < $1::timestamptz - interval '1 day' and b.folded = b.summarized
), fired as (
  select r.id as rule_id, r.name as rule_name, r.trigger, r.project_id,
    jsonb_build_object('summary', jsonb_build_object(
      'count', d.folded - d.summarized,
      'since', ${iso('d.minute')}, 'until', ${iso("(d.minute + interval '1 minute')")},
      case when r.trigger like 'monitor%' then 'monitors'
        when r.trigger like 'release%' then 'releases' else 'issues' end, d.subjects)) as payload
  from due d join alert_rules r on r.id = d.rule_id
), recorded as (
  insert into alert_deliveries (id, project_id, rule_id, rule_name, channel_id, channel_name,
    channel_type, trigger, subject_id, payload, status, next_attempt_at, created_at)
  select gen_random_uuid(), f.project_id, f.rule_id, f.rule_name, c.id, c.name, c.type,
    f.trigger, null, f.payload, 'pending', $1::timestamptz, $1::timestamptz
    from fired f
    join alert_rule_channels rc on rc.rule_id = f.rule_id
    join alert_channels c on c.id = rc.channel_id
  returning 1
)
select count(*)::int as recorded from recorded`

/** The AlertPayload `monitor` object of the `monitors` row (or CTE row) `m`. */
export const monitorPayload = (m: string, state: string, missedAfter?: string) =>
  /* sql */ `jsonb_build_object('id', ${m}.id, 'slug', ${m}.slug,
    'environment', ${m}.environment, 'state', ${state}, 'last_status', ${m}.last_status,
    'last_check_in_at', ${iso(`${m}.last_check_in_at`)},
    'expected_interval_seconds', ${m}.expected_interval_seconds${
      missedAfter ? `, 'missed_after', ${iso(missedAfter)}` : ''
    })`
