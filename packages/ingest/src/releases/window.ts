import type { ReleaseHealthRecord, SessionTotals } from '../ports/release-health'

// The window arithmetic of release health (docs/release-health.md): the default windows, the
// series' bucket width, the hours user counts cover, and the rates.

const HOUR_MS = 3_600_000
const DAY_MS = 86_400_000

/** Window of a release read when `since` is absent: the 30 days before `until`. */
export const DEFAULT_RELEASE_WINDOW_DAYS = 30
/** The adoption window: the 24 hours before now. */
export const ADOPTION_WINDOW_MS = DAY_MS
/** Longest window a release read may ask for. */
export const MAX_RELEASE_WINDOW_DAYS = 400

/** Bucket widths of a release's series, smallest first: the first giving at most 120 buckets. */
export const SERIES_INTERVALS = [60, 300, 900, 3_600, 21_600, 86_400, 604_800] as const
/** The most buckets a series is cut into. */
export const MAX_SERIES_BUCKETS = 120

/** The bucket width of a window's series, in seconds. */
export function seriesInterval(since: Date, until: Date): number {
  const span = (until.getTime() - since.getTime()) / 1000
  return SERIES_INTERVALS.find((s) => span / s <= MAX_SERIES_BUCKETS) ?? SERIES_INTERVALS.at(-1)!
}

/**
 * The window users are counted over: whole hours, from the hour `since` falls in to the hour
 * `until` falls in (inclusive), as users are stored per hour. Sessions are summed per minute.
 */
export function userHours(since: Date, until: Date): { since: Date; until: Date } {
  const start = Math.floor(since.getTime() / HOUR_MS) * HOUR_MS
  const end = Math.ceil(until.getTime() / HOUR_MS) * HOUR_MS
  return { since: new Date(start), until: new Date(Math.max(end, start + HOUR_MS)) }
}

/** The first minute a window covers and the first it does not: minutes are counted whole. */
export function sessionMinutes(since: Date, until: Date): { since: Date; until: Date } {
  const m = 60_000
  return {
    since: new Date(Math.floor(since.getTime() / m) * m),
    until: new Date(Math.ceil(until.getTime() / m) * m),
  }
}

/** Every session of the totals. */
export const totalOf = (s: SessionTotals) => s.healthy + s.errored + s.abnormal + s.crashed

/** `1 - part / whole`, or `null` when there is nothing to divide by; kept within 0..1. */
export function freeRate(part: number, whole: number): number | null {
  if (whole <= 0) return null
  return Math.min(1, Math.max(0, 1 - part / whole))
}

/** The JSON of one release: totals, users and the rates (Sentry's definitions). */
export function releaseJson(r: ReleaseHealthRecord, environment: string | null) {
  const total = totalOf(r.sessions)
  return {
    version: r.version,
    environment,
    first_seen_at: r.firstSeenAt.toISOString(),
    last_seen_at: r.lastSeenAt.toISOString(),
    sessions: {
      total,
      healthy: r.sessions.healthy,
      errored: r.sessions.errored,
      crashed: r.sessions.crashed,
      abnormal: r.sessions.abnormal,
    },
    users: { total: r.users.total, crashed: r.users.crashed },
    crash_free_sessions: freeRate(r.sessions.crashed, total),
    crash_free_users: freeRate(r.users.crashed, r.users.total),
    adoption: r.adoption.ofAll > 0 ? Math.min(1, r.adoption.sessions / r.adoption.ofAll) : null,
  }
}
