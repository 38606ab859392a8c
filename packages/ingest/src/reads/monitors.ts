import type { Monitor } from '@tis/schema'
import type { MonitorRecord } from '../ports'
import { isoOrNull } from './stored-values'

/** Read-time status of a monitor. */
export type MonitorStatus = 'ok' | 'error' | 'missed'

/** Grace after a monitor's expected time before it counts as missed: max(interval / 2, 30 s). */
export function monitorGraceSeconds(intervalSeconds: number): number {
  return Math.max(intervalSeconds / 2, 30)
}

/**
 * The status of a monitor at `now`: `error` while its last health is `error` (until an `ok`
 * arrives, even past its deadline), else `missed` once no check-in arrived within the interval
 * plus the grace, else `ok` — also while its health is still unknown (no `ok` or `error` yet).
 */
export function monitorStatus(m: MonitorRecord, now: Date): MonitorStatus {
  if (m.health === 'error') return 'error'
  const deadline =
    m.lastCheckInAt.getTime() +
    (m.expectedIntervalSeconds + monitorGraceSeconds(m.expectedIntervalSeconds)) * 1000
  return now.getTime() > deadline ? 'missed' : 'ok'
}

/** JSON of a monitor at `now`. */
export function monitorJson(m: MonitorRecord, now: Date): Monitor {
  const next = m.lastCheckInAt.getTime() + m.expectedIntervalSeconds * 1000
  const grace = monitorGraceSeconds(m.expectedIntervalSeconds)
  return {
    id: m.id,
    slug: m.slug,
    environment: m.environment,
    status: monitorStatus(m, now),
    health: m.health,
    last_status: m.lastStatus,
    last_check_in_at: isoOrNull(m.lastCheckInAt),
    expected_interval_seconds: m.expectedIntervalSeconds,
    next_expected_at: isoOrNull(new Date(next)),
    missed_after: isoOrNull(new Date(next + grace * 1000)),
    last_release: m.lastRelease,
    check_in_count: m.checkInCount,
  }
}
