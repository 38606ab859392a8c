import { iso, quietPassed, recordFired } from './alert-sql'
import type { BatchPlan } from './batch-plan'

/** What the rules' filters see of one event of a round (the AlertPayload `event`). */
interface CandidateEvent {
  id: string
  environment: string | null
  level: string | null
  release: string | null
  message: string | null
}

/** One issue of a round with the events its rules may be matched against. */
export interface AlertIssueRow {
  project_id: string
  hash: string
  /** The first event of the round per (environment, level), in batch order. */
  events: CandidateEvent[]
  /** The round's events per minute of arrival, environment and level (`''` for none). */
  counts: ArrivalCount[]
  /** How many events of the round the issue has. */
  n: number
}

/** A round's events of one issue that arrived in one minute with one environment and level. */
interface ArrivalCount {
  minute: string
  environment: string
  level: string
  n: number
}

/**
 * The input of {@link ALERT_ISSUES}: each issue of the plan with the first event of the round
 * per (environment, level) in batch order. A rule's filters look at nothing else, so the first
 * of these that passes them is the first event of the round that does.
 */
export function alertIssueRows(plan: BatchPlan): AlertIssueRow[] {
  const rows = new Map<
    string,
    { row: AlertIssueRow; seen: Set<string>; counts: Map<string, ArrivalCount> }
  >()
  // The ISO string of each arrival minute, made once a round rather than once an event.
  const minutes = new Map<number, string>()
  plan.events.forEach((event, i) => {
    const key = plan.eventIssueKeys[i]
    const issue = key ? plan.issues.get(key) : undefined
    if (!key || !issue) return
    let entry = rows.get(key)
    if (!entry) {
      const row = { project_id: issue.project_id, hash: issue.hash, events: [], counts: [], n: 0 }
      entry = { row, seen: new Set(), counts: new Map() }
      rows.set(key, entry)
    }
    entry.row.n += 1
    const level = event.level ?? issue.level
    const minuteMs = Math.floor(event.received_at.getTime() / 60_000) * 60_000
    let minute = minutes.get(minuteMs)
    if (minute === undefined) {
      minute = new Date(minuteMs).toISOString()
      minutes.set(minuteMs, minute)
    }
    // Keys joined with U+0000, which stored text cannot hold.
    const countKey = `${minute}\u0000${event.environment ?? ''}\u0000${level}`
    const count = entry.counts.get(countKey)
    if (count) count.n += 1
    else {
      const arrival = { minute, environment: event.environment ?? '', level, n: 1 }
      entry.counts.set(countKey, arrival)
      entry.row.counts.push(arrival)
    }
    // A null environment is not the empty one: only a present one is written, after `=`.
    const filterKey = `${event.environment === null ? '' : `=${event.environment}`}\u0000${level}`
    if (entry.seen.has(filterKey)) return
    entry.seen.add(filterKey)
    entry.row.events.push({
      id: event.id,
      environment: event.environment,
      level,
      release: event.release,
      message: event.message,
    })
  })
  return [...rows.values()].map((e) => e.row)
}

/**
 * Spike rule `m`'s count for issue `m.subject_id`: the arrivals passing its filters in the
 * minutes its window overlaps — stored ones (`alert_spike_counts`) plus the round's own (CTE
 * `arrivals`), which this statement's snapshot does not show yet.
 */
const spikeCount = (m: string) => {
  const since = `now() - make_interval(secs => ${m}.window_seconds + 60)`
  const filters = (t: string) => `(${m}.environment is null or ${t}.environment = ${m}.environment)
       and (${m}.level is null or ${t}.level = ${m}.level)`
  return /* sql */ `(select coalesce(sum(n), 0)::int from (
    select b.count as n from alert_spike_counts b
     where b.issue_id = ${m}.subject_id and b.minute > ${since} and ${filters('b')}
    union all
    select a.n from arrivals a
     where a.issue_id = ${m}.subject_id and a.minute > ${since} and ${filters('a')}) x)`
}

/**
 * Evaluates the issue rules (`new_issue`, `regression`, `spike`) of a round's issues, after the
 * round's issues and events are written (same transaction): an issue not yet `alerted` was
 * opened, one whose `regression_count` passed `alerted_regressions` was reopened; both marks
 * move on in this statement, so a round run again records nothing twice. Each rule fires with
 * the first event of the round that passes its filters (none: it does not fire), unless its
 * quiet period for the issue holds.
 *
 * Spike rules: an issue is `spike_tracked` from the round its count passes the lowest threshold
 * of its project's spike rules (before, no window can hold more than the threshold); that round
 * counts its arrivals of the last day from `events` (at most that threshold plus the round's
 * events, unless the rule is newer than the issue's count: then they count from that round).
 * A tracked issue's arrivals are counted per minute (`alert_spike_counts`, in this statement);
 * a spike rule fires when more than `threshold` of them (passing its filters) arrived in the
 * minutes its `window_seconds` overlaps: a sum of at most window / 60 + 1 rows per environment
 * and level, whatever the storm. Issues that were neither opened, reopened nor tracked take no
 * part, so a round of issues below every threshold costs one index probe per issue and rule set.
 */
export const ALERT_ISSUES = /* sql */ `
with input as (
  select * from jsonb_to_recordset($1::text::jsonb) as r(
    project_id uuid, hash text, events jsonb, counts jsonb, n bigint)
), candidate as (
  select i.id as subject_id, i.project_id, i.regression_count, i.level as issue_level,
    i.count as issue_count, input.events, input.counts, i.spike_tracked as tracked,
    not i.alerted as opened, i.regression_count > i.alerted_regressions as reopened,
    (select min(r.threshold) from alert_rules r where r.project_id = i.project_id
      and r.trigger = 'spike') as lowest,
    i.count - input.n as count_before,
    jsonb_build_object('id', i.id, 'title', i.title, 'level', i.level, 'status', i.status,
      'count', i.count, 'users', i.users, 'first_seen_at', ${iso('i.first_seen_at')},
      'last_seen_at', ${iso('i.last_seen_at')}, 'last_release', i.last_release,
      'regression_count', i.regression_count) as issue
  from input join issues i on i.project_id = input.project_id and i.hash = input.hash
  -- Only an issue opened or reopened, or of a project with spike rules, can be a subject below:
  -- the others (most of a round of known issues) stop here, before their payload is built.
  where not i.alerted or i.regression_count > i.alerted_regressions
     or exists (select 1 from alert_rules r where r.project_id = i.project_id
      and r.trigger = 'spike')
), judged as (
  select c.*, c.lowest is not null and (c.tracked or c.issue_count > c.lowest) as spiky
  from candidate c
), subject as (
  select j.*, j.spiky and not j.tracked as starting,
    -- Its whole history is at most the lowest threshold plus this round: counted from events.
    j.spiky and not j.tracked and j.count_before <= j.lowest as backfill
  from judged j where j.opened or j.reopened or j.spiky
), marked as (
  update issues i set alerted = true, alerted_regressions = s.regression_count,
    spike_tracked = i.spike_tracked or s.starting
    from subject s where i.id = s.subject_id and (s.opened or s.reopened or s.starting)
), arrivals as (
  -- Older arrivals (a round far behind) count for no window, and their minutes may be
  -- expiring below: never write a row this statement deletes.
  select s.subject_id as issue_id, c.minute, c.environment, c.level, c.n
    from subject s cross join lateral jsonb_to_recordset(s.counts)
      as c(minute timestamptz, environment text, level text, n bigint)
   where s.spiky and not s.backfill and c.minute > now() - interval '1 day 1 minute'
  union all
  select s.subject_id, date_trunc('minute', e.received_at), coalesce(e.environment, ''),
    coalesce(e.level, s.issue_level), count(*)
    from subject s join events e on e.issue_id = s.subject_id
   where s.backfill and e.received_at > now() - interval '1 day 1 minute'
   group by 1, 2, 3, 4
), counted_arrivals as (
  insert into alert_spike_counts as b (issue_id, minute, environment, level, count)
  select issue_id, minute, environment, level, n from arrivals order by 1, 2, 3, 4
  on conflict (issue_id, minute, md5(environment), md5(level))
    do update set count = b.count + excluded.count
), expired_arrivals as (
  delete from alert_spike_counts b using subject s
   where s.spiky and b.issue_id = s.subject_id and b.minute < now() - interval '1 day 2 minutes'
), matched as (
  select r.id as rule_id, r.name as rule_name, r.trigger, r.quiet_seconds, r.threshold,
    r.window_seconds, r.environment, r.level, s.project_id, s.subject_id, s.issue, ev.event
  from subject s
  join alert_rules r on r.project_id = s.project_id
   and ((r.trigger = 'new_issue' and s.opened) or (r.trigger = 'regression' and s.reopened)
     or (r.trigger = 'spike' and s.spiky and s.issue_count > r.threshold))
  cross join lateral (
    select e.v as event from jsonb_array_elements(s.events) with ordinality e(v, n)
     where (r.environment is null or e.v ->> 'environment' = r.environment)
       and (r.level is null or e.v ->> 'level' = r.level)
     order by e.n limit 1) ev
  where ${quietPassed('r', 's.subject_id', 'now()')}
), counted as (
  select m.*, case when m.trigger = 'spike' then ${spikeCount('m')} end as spike_count
  from matched m
), fired as (
  select rule_id, rule_name, trigger, quiet_seconds, project_id, subject_id,
    jsonb_build_object('issue', issue, 'event', event) || case when trigger = 'spike'
      then jsonb_build_object('spike', jsonb_build_object(
        'count', spike_count,
        'threshold', threshold, 'window_seconds', window_seconds))
      else '{}'::jsonb end as payload
  from counted where trigger <> 'spike' or spike_count > threshold
)${recordFired('now()')}
select count(*)::int as recorded from recorded`
