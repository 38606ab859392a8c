import type {
  ReleaseHealthRecord,
  ReleaseHealthStore,
  ReleaseListQuery,
  ReleaseWindow,
} from '@tis/ingest'
import type { SqlExecutor, SqlParam } from './executor'
import { DEPLOYMENT_COLUMNS, ISSUE_COLUMNS, toDeployment, toIssue } from './read-rows'

// Release health reads (docs/release-health.md). Sessions over a window are the hours it covers
// whole (`session_hours`) plus the minutes of its partial hours at each end (`session_minutes`):
// 30 days of a release are ~720 hours per environment, not 43,200 minutes. Users are one row per
// (release, environment, user) with their sorted hours: active in the window when some hour
// falls in it, two binary searches (`width_bucket`) per user. Parameters: $1 project,
// $2 environment (null: all), $3 first minute, $4 first whole hour, $5 end of the whole hours,
// $6 end minute (exclusive), $7 users' first hour and $8 end hour (hours since the epoch),
// $9 adoption's first hour.

const HOUR_MS = 3_600_000
const MINUTE_MS = 60_000

/** The sessions of release `rel.version` over the window, as `(healthy, errored, …)` rows. */
const WINDOW_ROWS = /* sql */ `
    select healthy, errored, abnormal, crashed from session_hours h
     where h.project_id = $1::uuid and h.release = rel.version
       and ($2::text is null or h.environment = $2::text)
       and h.hour >= $4::timestamptz and h.hour < $5::timestamptz
    union all
    select healthy, errored, abnormal, crashed from session_minutes m
     where m.project_id = $1::uuid and m.release = rel.version
       and ($2::text is null or m.environment = $2::text)
       and m.minute >= $3::timestamptz and m.minute < $4::timestamptz
    union all
    select healthy, errored, abnormal, crashed from session_minutes m
     where m.project_id = $1::uuid and m.release = rel.version
       and ($2::text is null or m.environment = $2::text)
       and m.minute >= $5::timestamptz and m.minute < $6::timestamptz`

/** The health columns of the releases in `rel` (a CTE of `version` rows). */
const HEALTH = /* sql */ `
select rel.version, rel.first_seen_at, rel.last_seen_at,
       coalesce(s.healthy, 0)::int as healthy, coalesce(s.errored, 0)::int as errored,
       coalesce(s.abnormal, 0)::int as abnormal, coalesce(s.crashed, 0)::int as crashed,
       coalesce(u.total, 0)::int as users, coalesce(u.crashed, 0)::int as crashed_users,
       coalesce(a.sessions, 0)::int as adoption_sessions,
       (select coalesce(sum(healthy + errored + abnormal + crashed), 0) from session_hours
         where project_id = $1::uuid and ($2::text is null or environment = $2::text)
           and hour >= $9::timestamptz)::int as adoption_all
  from rel
  left join lateral (
    select sum(healthy) as healthy, sum(errored) as errored, sum(abnormal) as abnormal,
           sum(crashed) as crashed
      from (${WINDOW_ROWS}) w
  ) s on true
  left join lateral (
    select count(*) filter (where active) as total, count(*) filter (where crashed) as crashed
      from (select bool_or(width_bucket($8::int - 1, su.hours)
                           > width_bucket($7::int - 1, su.hours)) as active,
                   bool_or(width_bucket($8::int - 1, su.crashed_hours)
                           > width_bucket($7::int - 1, su.crashed_hours)) as crashed
              from session_users su
             where su.project_id = $1::uuid and su.release = rel.version
               and ($2::text is null or su.environment = $2::text)
             group by su.did) per_user
  ) u on true
  left join lateral (
    select sum(healthy + errored + abnormal + crashed) as sessions
      from session_hours h
     where h.project_id = $1::uuid and h.release = rel.version
       and ($2::text is null or h.environment = $2::text) and h.hour >= $9::timestamptz
  ) a on true`

type Row = Record<string, unknown>

const toRelease = (r: Row): ReleaseHealthRecord => ({
  version: r['version'] as string,
  firstSeenAt: new Date(r['first_seen_at'] as string),
  lastSeenAt: new Date(r['last_seen_at'] as string),
  sessions: {
    healthy: Number(r['healthy']),
    errored: Number(r['errored']),
    abnormal: Number(r['abnormal']),
    crashed: Number(r['crashed']),
  },
  users: { total: Number(r['users']), crashed: Number(r['crashed_users']) },
  adoption: { sessions: Number(r['adoption_sessions']), ofAll: Number(r['adoption_all']) },
})

const floorTo = (t: number, unit: number) => Math.floor(t / unit) * unit
const ceilTo = (t: number, unit: number) => Math.ceil(t / unit) * unit

/**
 * The nine window parameters of {@link HEALTH}: the minutes `[since, until)` holds (a minute
 * counts when it is at or after `since` and before `until`), the whole hours among them, the
 * hours users are counted over (the hour `since` falls in to the hour `until` falls in) and the
 * hours of the adoption window.
 */
export function windowParams(q: ReleaseWindow): SqlParam[] {
  const first = ceilTo(q.since.getTime(), MINUTE_MS)
  const end = ceilTo(q.until.getTime(), MINUTE_MS)
  let hoursFrom = ceilTo(first, HOUR_MS)
  let hoursTo = floorTo(end, HOUR_MS)
  // No whole hour: the minutes alone, as one range.
  if (hoursFrom >= hoursTo) hoursFrom = hoursTo = end
  const userFrom = Math.floor(q.since.getTime() / HOUR_MS)
  const userTo = Math.max(Math.ceil(q.until.getTime() / HOUR_MS), userFrom + 1)
  return [
    q.projectId,
    q.environment,
    new Date(first),
    new Date(hoursFrom),
    new Date(hoursTo),
    new Date(end),
    userFrom,
    userTo,
    new Date(floorTo(q.adoptionSince.getTime(), HOUR_MS)),
  ]
}

/** The release reads over one executor. */
export function createReleaseQueries(db: SqlExecutor): ReleaseHealthStore {
  return {
    async listReleases(q: ReleaseListQuery) {
      const after = q.after
      const rows = await db.query<Row>(
        `with rel as (
           select version, min(first_seen_at) as first_seen_at, max(last_seen_at) as last_seen_at
             from releases
            where project_id = $1::uuid and ($2::text is null or environment = $2::text)
            group by version
           having max(last_seen_at) >= $3::timestamptz and min(first_seen_at) < $6::timestamptz
              and ($11::timestamptz is null
                   or (max(last_seen_at), version) < ($11::timestamptz, $12::text))
            order by max(last_seen_at) desc, version desc
            limit $10::int
         )
         ${HEALTH}
         order by rel.last_seen_at desc, rel.version desc`,
        [...windowParams(q), q.limit, after?.lastSeenAt ?? null, after?.version ?? null],
      )
      return rows.map(toRelease)
    },

    async findRelease(q) {
      const rows = await db.query<Row>(
        `with rel as (
           select version, min(first_seen_at) as first_seen_at, max(last_seen_at) as last_seen_at
             from releases
            where project_id = $1::uuid and version = $10::text
              and ($2::text is null or environment = $2::text)
            group by version
         )
         ${HEALTH}`,
        [...windowParams(q), q.version],
      )
      return rows[0] ? toRelease(rows[0]) : null
    },

    async releaseSeries(q) {
      // Buckets of an hour or more sum whole hours, aligned on the hour `since` falls in;
      // smaller ones sum minutes.
      const hourly = q.bucketSeconds >= 3_600
      const table = hourly ? 'session_hours' : 'session_minutes'
      const column = hourly ? 'hour' : 'minute'
      const origin = hourly ? new Date(floorTo(q.since.getTime(), HOUR_MS)) : q.since
      const rows = await db.query<Row>(
        `select date_bin(make_interval(secs => $5::int), ${column}, $3::timestamptz) as at,
                sum(healthy + errored + abnormal + crashed)::int as sessions,
                sum(errored)::int as errored, sum(crashed)::int as crashed
           from ${table}
          where project_id = $1::uuid and release = $6::text
            and ($2::text is null or environment = $2::text)
            and ${column} >= $3::timestamptz and ${column} < $4::timestamptz
          group by 1 order by 1`,
        [q.projectId, q.environment, origin, q.until, q.bucketSeconds, q.version],
      )
      return rows.map((r) => ({
        at: new Date(r['at'] as string),
        sessions: Number(r['sessions']),
        errored: Number(r['errored']),
        crashed: Number(r['crashed']),
      }))
    },

    async releaseIssues(projectId, version, limit) {
      const rows = await db.query(
        `select ${ISSUE_COLUMNS} from issues i
          where i.project_id = $1::uuid and i.first_release = $2::text
          order by i.first_seen_at desc, i.id desc limit $3::int`,
        [projectId, version, limit],
      )
      return rows.map(toIssue)
    },

    async releaseDeployments(projectId, version, limit) {
      const rows = await db.query(
        `select ${DEPLOYMENT_COLUMNS} from deployments d
          where d.project_id = $1::uuid and d.release = $2::text
          order by d.deployed_at desc, d.id desc limit $3::int`,
        [projectId, version, limit],
      )
      return rows.map(toDeployment)
    },
  }
}
