import { monitorPayload, quietPassed, recordFired } from './alert-sql'
import type { BatchPlan } from './batch-plan'

/**
 * The input of {@link ALERT_MONITORS}: the natural key of each monitor of a round, and whether
 * the round carried a health (`ok` or `error`) check-in for it.
 */
export const alertMonitorRows = (plan: BatchPlan) =>
  [...plan.monitors.values()].map(({ project_id, slug, environment, status }) => ({
    project_id,
    slug,
    environment,
    health: status !== null,
  }))

/**
 * Evaluates the monitor rules of a round's monitors, after their upsert (same transaction): a
 * monitor with an `ok` or `error` check-in in the round whose health (`status`) differs from the
 * state last evaluated (`alert_state`) moves it on in this statement — to `error` (fires
 * `monitor_failed` unless it was `error` already) or to `ok` (fires `monitor_recovered` when it
 * was `error` or `missed`). Other check-ins (`in_progress`, …) leave the state alone: a missed
 * job that starts again has not recovered until it reports `ok`. Rules filter on the monitor's
 * environment and keep their quiet period per monitor.
 */
export const ALERT_MONITORS = /* sql */ `
with input as (
  select * from jsonb_to_recordset($1::text::jsonb) as r(
    project_id uuid, slug text, environment text, health boolean)
), subject as (
  select m.id, m.project_id, m.slug, m.environment, m.status, m.last_status,
    m.last_check_in_at, m.expected_interval_seconds,
    case when m.status = 'error' then 'monitor_failed'
      when m.alert_state in ('error', 'missed') then 'monitor_recovered' end as trigger
  from input join monitors m on m.project_id = input.project_id
   and md5(m.slug) = md5(input.slug) and md5(m.environment) = md5(input.environment)
   and m.slug = input.slug and m.environment = input.environment
  where input.health and m.status is not null and m.status is distinct from m.alert_state
), moved as (
  update monitors m set alert_state = s.status from subject s where m.id = s.id
), fired as (
  select r.id as rule_id, r.name as rule_name, r.trigger, r.quiet_seconds, s.project_id,
    s.id as subject_id, jsonb_build_object('monitor', ${monitorPayload('s', 's.status')}) as payload
  from subject s
  join alert_rules r on r.project_id = s.project_id and r.trigger = s.trigger
   and (r.environment is null or r.environment = s.environment)
  where ${quietPassed('r', 's.id', 'now()')}
)${recordFired('now()')}
select count(*)::int as recorded from recorded`
