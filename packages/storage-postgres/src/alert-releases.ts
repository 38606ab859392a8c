import type { AlertDeliveryStore } from '@tis/ingest'
import { quietPassed, recordFired } from './alert-sql'
import type { SqlExecutor } from './executor'

/**
 * `release_crash_free_below` at `$1` (now): per rule, the crash-free sessions of every release
 * with sessions started in the rule's window (whole minutes, in its environment or all of them
 * together), compared with its threshold. The state upsert moves a release below (or back at or
 * above) and returns only the releases that moved below: a concurrent check waits for the row
 * and finds it already below, so each fall is recorded once. Those fire, after the rule's quiet
 * period, with the release's figures as the payload; the subject is a uuid of the (project,
 * release, environment).
 */
export const CHECK_RELEASE_HEALTH = /* sql */ `
with rules as (
  select r.* from alert_rules r where r.trigger = 'release_crash_free_below'
), health as (
  select r.id as rule_id, m.release, coalesce(r.environment, '') as environment,
         sum(m.healthy + m.errored + m.abnormal + m.crashed)::bigint as sessions,
         sum(m.crashed)::bigint as crashed
    from rules r
    join session_minutes m on m.project_id = r.project_id
     and (r.environment is null or m.environment = r.environment)
     and m.minute >= date_trunc('minute', $1::timestamptz - make_interval(secs => r.window_seconds))
     and m.minute <= $1::timestamptz
   group by r.id, m.release, coalesce(r.environment, '')
  having sum(m.healthy + m.errored + m.abnormal + m.crashed) > 0
), rated as (
  select h.*, greatest(0, 1 - h.crashed::double precision / h.sessions) as rate,
         greatest(0, 1 - h.crashed::double precision / h.sessions) < r.threshold as below
    from health h join rules r on r.id = h.rule_id
), moved as (
  insert into alert_release_states as s (rule_id, release, environment, below, changed_at)
  select rule_id, release, environment, below, $1::timestamptz from rated
   order by rule_id, release, environment
  on conflict (rule_id, release, environment) do update
    set below = excluded.below, changed_at = excluded.changed_at
    where s.below is distinct from excluded.below
  returning s.rule_id, s.release, s.environment, s.below
), fallen as (
  select r.id, r.project_id, r.name, r.trigger, r.quiet_seconds, r.threshold, r.window_seconds,
         x.release, x.environment, x.sessions, x.crashed, x.rate,
         md5(r.project_id::text || chr(31) || x.release || chr(31) || x.environment)::uuid
           as subject_id
    from moved m
    join rated x on x.rule_id = m.rule_id and x.release = m.release
     and x.environment = m.environment
    join rules r on r.id = m.rule_id
   where m.below
), fired as (
  select f.id as rule_id, f.name as rule_name, f.trigger, f.quiet_seconds, f.project_id,
    f.subject_id,
    jsonb_build_object('release', jsonb_build_object('version', f.release,
      'environment', nullif(f.environment, ''), 'crash_free_sessions', f.rate,
      'sessions', f.sessions, 'crashed', f.crashed, 'threshold', f.threshold,
      'window_seconds', f.window_seconds)) as payload
  from fallen f
  where ${quietPassed('f', 'f.subject_id', '$1::timestamptz')}
)${recordFired('$1::timestamptz')}
select (select count(*)::int from recorded) as recorded`

/** {@link AlertDeliveryStore.checkReleaseHealth} over one executor. */
export function createReleaseAlertQueries(
  db: SqlExecutor,
): Pick<AlertDeliveryStore, 'checkReleaseHealth'> {
  return {
    async checkReleaseHealth(now) {
      const [row] = await db.query<{ recorded: number }>(CHECK_RELEASE_HEALTH, [now])
      return row?.recorded ?? 0
    },
  }
}
