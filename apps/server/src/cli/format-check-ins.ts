// Human-readable output of a monitor's check-in history (`tis monitors check-ins`).
import type { Monitor, StoredCheckIn } from '@tis/schema'
import { table } from './format'
import { ms } from './format-performance'

/** One check-in as `GET …/monitors/:monitor_id/check_ins` returns it. */
export type CheckInJson = StoredCheckIn

/** A monitor as `GET …/monitors/:monitor_id` returns it (the history's heading). */
export type MonitorDetailJson = Monitor

/** The monitor the history belongs to, on one line, then a blank line. */
export function monitorHeading(m: MonitorDetailJson): string {
  return `${m.slug} (${m.environment}): ${m.status}; ${m.check_in_count} check-ins, last ${m.last_check_in_at}, next expected ${m.next_expected_at}, missed after ${m.missed_after}\n\n`
}

/** Check-ins newest first: time, status, duration, environment, release, trace, source. */
export function checkInTable(checkIns: readonly CheckInJson[]): string {
  return table(
    ['OCCURRED', 'STATUS', 'DURATION', 'ENVIRONMENT', 'RELEASE', 'TRACE', 'SOURCE'],
    checkIns.map((c) => [
      c.occurred_at,
      c.status,
      ms(c.duration_ms),
      c.environment,
      c.release ?? '-',
      c.trace_id ?? '-',
      c.source,
    ]),
  )
}
