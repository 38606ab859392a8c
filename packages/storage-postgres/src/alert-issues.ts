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
}

/**
 * The input of {@link ALERT_ISSUES}: each issue of the plan with the first event of the round
 * per (environment, level) in batch order. A rule's filters look at nothing else, so the first
 * of these that passes them is the first event of the round that does.
 */
export function alertIssueRows(plan: BatchPlan): AlertIssueRow[] {
  const rows = new Map<string, { row: AlertIssueRow; seen: Set<string> }>()
  plan.events.forEach((event, i) => {
    const key = plan.eventIssueKeys[i]
    const issue = key ? plan.issues.get(key) : undefined
    if (!key || !issue) return
    let entry = rows.get(key)
    if (!entry) {
      entry = {
        row: { project_id: issue.project_id, hash: issue.hash, events: [] },
        seen: new Set(),
      }
      rows.set(key, entry)
    }
    const level = event.level ?? issue.level
    const filterKey = JSON.stringify([event.environment, level])
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
 * The events of issue `m.subject_id` that passed spike rule `m`'s filters and arrived within its
 * window: received in it and dated in it (so the count is a range of `events_issue_idx`, and a
 * client's backdated events do not count), at most `limit`.
 */
const spikeCount = (m: string, limit: string) => /* sql */ `(select count(*)::int from (
    select 1 from events e
     where e.issue_id = ${m}.subject_id
       and e.occurred_at > now() - make_interval(secs => ${m}.window_seconds)
       and e.received_at > now() - make_interval(secs => ${m}.window_seconds)
       and (${m}.environment is null or e.environment = ${m}.environment)
       and (${m}.level is null or e.level = ${m}.level)
     limit ${limit}) x)`

/** What a spike's payload counts up to (the rule itself stops counting at threshold + 1). */
const SPIKE_COUNT_CAP = 100_000

/**
 * Evaluates the issue rules (`new_issue`, `regression`, `spike`) of a round's issues, after the
 * round's issues and events are written (same transaction): an issue not yet `alerted` was
 * opened, one whose `regression_count` passed `alerted_regressions` was reopened; both marks
 * move on in this statement, so a round run again records nothing twice. Each rule fires with
 * the first event of the round that passes its filters (none: it does not fire), unless its
 * quiet period for the issue holds; a spike rule fires when more than `threshold` of the
 * issue's events (passing its filters) arrived within `window_seconds` — counting stops at
 * `threshold + 1`, and only a rule that fires counts on, up to 100,000, for its payload. Issues that were
 * neither opened nor reopened are only looked at when their project has a spike rule, so a
 * round of a project without rules costs one index probe per issue.
 */
export const ALERT_ISSUES = /* sql */ `
with input as (
  select * from jsonb_to_recordset($1::text::jsonb) as r(project_id uuid, hash text, events jsonb)
), subject as (
  select i.id as subject_id, i.project_id, i.regression_count, input.events,
    not i.alerted as opened, i.regression_count > i.alerted_regressions as reopened,
    jsonb_build_object('id', i.id, 'title', i.title, 'level', i.level, 'status', i.status,
      'count', i.count, 'first_seen_at', ${iso('i.first_seen_at')},
      'last_seen_at', ${iso('i.last_seen_at')}, 'last_release', i.last_release,
      'regression_count', i.regression_count) as issue
  from input join issues i on i.project_id = input.project_id and i.hash = input.hash
  where not i.alerted or i.regression_count > i.alerted_regressions
     or exists (select 1 from alert_rules r where r.project_id = i.project_id
       and r.trigger = 'spike')
), marked as (
  update issues i set alerted = true, alerted_regressions = s.regression_count
    from subject s where i.id = s.subject_id and (s.opened or s.reopened)
), matched as (
  select r.id as rule_id, r.name as rule_name, r.trigger, r.quiet_seconds, r.threshold,
    r.window_seconds, r.environment, r.level, s.project_id, s.subject_id, s.issue, ev.event
  from subject s
  join alert_rules r on r.project_id = s.project_id
   and ((r.trigger = 'new_issue' and s.opened) or (r.trigger = 'regression' and s.reopened)
     or r.trigger = 'spike')
  cross join lateral (
    select e.v as event from jsonb_array_elements(s.events) with ordinality e(v, n)
     where (r.environment is null or e.v ->> 'environment' = r.environment)
       and (r.level is null or e.v ->> 'level' = r.level)
     order by e.n limit 1) ev
  where ${quietPassed('r', 's.subject_id', 'now()')}
), counted as (
  select m.*, case when m.trigger = 'spike' then ${spikeCount('m', 'm.threshold + 1')} end as over
  from matched m
), fired as (
  select rule_id, rule_name, trigger, quiet_seconds, project_id, subject_id,
    jsonb_build_object('issue', issue, 'event', event) || case when trigger = 'spike'
      then jsonb_build_object('spike', jsonb_build_object(
        'count', ${spikeCount('c', String(SPIKE_COUNT_CAP))},
        'threshold', threshold, 'window_seconds', window_seconds))
      else '{}'::jsonb end as payload
  from counted c where trigger <> 'spike' or over > threshold
)${recordFired('now()')}
select count(*)::int as recorded from recorded`
