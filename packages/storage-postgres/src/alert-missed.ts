import type { AlertDeliveryStore } from '@tis/ingest'
import { iso, monitorPayload, quietPassed, recordFired, SUMMARIZE_BURSTS } from './alert-sql'
import type { SqlExecutor } from './executor'

/** A monitor's interval plus its grace, grace = max(interval / 2, 30 s). */
const PERIOD = `make_interval(secs => m.expected_interval_seconds
    + greatest(m.expected_interval_seconds / 2.0, 30))`

/**
 * Due: the deadline (last check-in + interval + grace, as `monitorStatus` of `@tis/ingest`
 * computes it at read time) is before now. Written as `last check-in < now - period`, so a
 * far-future last check-in (an old database may hold one) cannot overflow the timestamp.
 */
const DUE = `m.last_check_in_at < $1::timestamptz - ${PERIOD}`

/**
 * Moves up to `$2` monitors whose deadline passed before `$1` (now) and that are not `missed`
 * yet to `missed`, earliest deadline first: locks them (`skip locked`: a monitor a concurrent
 * scan or check-in holds is left to the next scan; a scan that finds one moved meanwhile
 * re-checks it and leaves it), writes the transition into the monitor's history (a `check_ins`
 * row of status `missed`, source `scheduler`, at the deadline, received at now) and records the
 * `monitor_missed` notifications. One statement, so one transaction. Resolves `moved`.
 */
export const MARK_MISSED = /* sql */ `
with due as (
  select m.id, m.last_check_in_at + ${PERIOD} as deadline from monitors m
   where ${DUE} and m.alert_state is distinct from 'missed'
   order by 2 limit $2::int
   for update skip locked
), moved as (
  update monitors m set alert_state = 'missed' from due where m.id = due.id
  returning m.id, m.project_id, m.slug, m.environment, m.last_status, m.last_check_in_at,
    m.expected_interval_seconds, due.deadline
), history as (
  insert into check_ins (id, monitor_id, project_id, slug, status, environment, release,
    occurred_at, received_at, payload, source)
  select gen_random_uuid(), id, project_id, slug, 'missed', environment, null, deadline,
    $1::timestamptz, jsonb_build_object('slug', slug, 'status', 'missed',
      'environment', environment, 'expected_interval_seconds', expected_interval_seconds,
      'last_check_in_at', ${iso('last_check_in_at')}, 'missed_after', ${iso('deadline')}),
    'scheduler'
  from moved
), fired as (
  select r.id as rule_id, r.name as rule_name, r.trigger, r.quiet_seconds, s.project_id,
    s.id as subject_id,
    jsonb_build_object('monitor', ${monitorPayload('s', "'missed'", 's.deadline')}) as payload
  from moved s
  join alert_rules r on r.project_id = s.project_id and r.trigger = 'monitor_missed'
   and (r.environment is null or r.environment = s.environment)
  where ${quietPassed('r', 's.id', '$1::timestamptz')}
)${recordFired('$1::timestamptz')}
select (select count(*)::int from moved) as moved, (select count(*)::int from recorded) as recorded`

/**
 * {@link AlertDeliveryStore.markMissedMonitors} and
 * {@link AlertDeliveryStore.summarizeAlertBursts} (the scheduler's work) over one executor.
 */
export function createMissedMonitorQueries(
  db: SqlExecutor,
): Pick<AlertDeliveryStore, 'markMissedMonitors' | 'summarizeAlertBursts'> {
  return {
    async markMissedMonitors(now, limit) {
      const [row] = await db.query<{ moved: number }>(MARK_MISSED, [now, limit])
      return row?.moved ?? 0
    },
    async summarizeAlertBursts(now, limit) {
      const [row] = await db.query<{ recorded: number }>(SUMMARIZE_BURSTS, [now, limit])
      return row?.recorded ?? 0
    },
  }
}
