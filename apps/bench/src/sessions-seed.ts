// The release-health data of the read comparison, as the writes the engine hands the ingest log:
// `sessions` aggregates (request mode), one per release, environment and hour, whose buckets are
// each minute's anonymous sessions and the hour's active users (one bucket per `did`). The
// store's own append and projection turn them into `session_minutes`, `session_users` and
// `releases` rows, so every row is one the product would have written for these items.
import { randomUUID } from 'node:crypto'
import type { WriteOp } from '@tis/ingest'
import { RELEASES, randomSource } from './seed-shape'

type SessionOp = Extract<WriteOp, { type: 'session' }>
type SessionBucket = Extract<SessionOp['session'], { kind: 'aggregate' }>['buckets'][number]

/** The release whose health is read: the oldest seeded one, so the seeded issues are its new ones. */
export const HEALTH_RELEASE = RELEASES[0] as string

/** Days of minute aggregates, ending now. */
export const HEALTH_DAYS = 30

/** Sessions of one release in one environment. */
export interface SessionLine {
  readonly release: string
  readonly environment: string
  /** Anonymous sessions per minute at the day's peak (fewer at night). */
  readonly perMinute: number
  /** A bucket every `every` minutes. @default 1 */
  readonly every?: number
  /** Users active per hour at the day's peak. */
  readonly usersPerHour: number
  /** Distinct users the hourly users are drawn from. */
  readonly users: number
}

/**
 * The seeded lines: {@link HEALTH_RELEASE} every minute in production and staging and every
 * five minutes in development, with 2,000 users; the five other releases every minute in
 * production with fewer sessions and users (the adoption sum reads them all).
 */
export const SESSION_LINES: readonly SessionLine[] = [
  {
    release: HEALTH_RELEASE,
    environment: 'production',
    perMinute: 40,
    usersPerHour: 200,
    users: 2_000,
  },
  { release: HEALTH_RELEASE, environment: 'staging', perMinute: 4, usersPerHour: 8, users: 40 },
  {
    release: HEALTH_RELEASE,
    environment: 'development',
    perMinute: 2,
    every: 5,
    usersPerHour: 3,
    users: 10,
  },
  ...RELEASES.slice(1).map((release) => ({
    release,
    environment: 'production',
    perMinute: 10,
    usersPerHour: 30,
    users: 500,
  })),
]

const MINUTE_MS = 60_000
const HOUR_MS = 3_600_000

/** The day's activity at `ms`: 0.2 at night, 1 at the afternoon peak. */
const daily = (ms: number) => 0.6 + 0.4 * Math.sin(((ms % 86_400_000) / 86_400_000) * 2 * Math.PI)

/** The buckets of one hour of `line`: each minute's anonymous sessions, then the hour's users. */
export function hourBuckets(
  line: SessionLine,
  hour: number,
  random: () => number,
): SessionBucket[] {
  const buckets: SessionBucket[] = []
  const every = line.every ?? 1
  for (let m = 0; m < 60; m += every) {
    const at = hour + m * MINUTE_MS
    const n = Math.max(1, Math.round(line.perMinute * daily(at) * (0.7 + 0.6 * random())))
    const errored = random() < 0.3 ? 1 : 0
    const crashed = random() < 0.1 ? 1 : 0
    const abnormal = random() < 0.02 ? 1 : 0
    buckets.push({
      started: new Date(at).toISOString(),
      did: null,
      exited: n - errored - crashed - abnormal > 0 ? n - errored - crashed - abnormal : 1,
      errored,
      abnormal,
      crashed,
    })
  }
  const active = Math.max(1, Math.round(line.usersPerHour * daily(hour)))
  const seen = new Set<number>()
  for (let u = 0; u < active; u++) {
    const user = Math.floor(random() * line.users)
    if (seen.has(user)) continue
    seen.add(user)
    const crashed = random() < 0.02 ? 1 : 0
    buckets.push({
      started: new Date(hour + Math.floor(random() * 60) * MINUTE_MS).toISOString(),
      did: `user-${user}`,
      exited: 1 - crashed,
      errored: 0,
      abnormal: 0,
      crashed,
    })
  }
  return buckets
}

/**
 * One `sessions` aggregate op per line and hour of the {@link HEALTH_DAYS} days before `now`
 * (the last hour up to now's minute), oldest first.
 */
export function* sessionOps(
  projectId: string,
  now: number,
  lines: readonly SessionLine[] = SESSION_LINES,
  days = HEALTH_DAYS,
): Generator<SessionOp> {
  const last = Math.floor(now / HOUR_MS) * HOUR_MS
  const first = last - days * 24 * HOUR_MS
  const receivedAt = new Date(now)
  for (const line of lines) {
    const random = randomSource(`sessions:${line.release}:${line.environment}`)
    for (let hour = first; hour <= last; hour += HOUR_MS) {
      const buckets = hourBuckets(line, hour, random).filter((b) => Date.parse(b.started) < now)
      if (buckets.length === 0) continue
      yield {
        type: 'session',
        id: randomUUID(),
        projectId,
        receivedAt,
        dedupe: true,
        session: {
          kind: 'aggregate',
          release: line.release,
          environment: line.environment,
          buckets,
        },
      }
    }
  }
}
