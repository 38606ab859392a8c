import type {
  ReleaseHealthRecord,
  ReleaseHealthStore,
  ReleaseListQuery,
  ReleaseWindow,
} from '@tis/ingest'
import type { SqlExecutor, SqlParam } from './executor'
import { DEPLOYMENT_COLUMNS, ISSUE_COLUMNS, toDeployment, toIssue } from './read-rows'

// Release health reads (docs/release-health.md): sums of `session_minutes` and distinct users of
// `session_users` over a window, through their (project, release, environment, time) keys.
// Parameters: $1 project, $2 environment (null: all), $3 since, $4 until, $5 users' first hour,
// $6 users' end hour, $7 adoption window start.

const HOUR_MS = 3_600_000

/** The health columns of the releases in `rel` (a CTE of `version` rows). */
const HEALTH = /* sql */ `
select rel.version, rel.first_seen_at, rel.last_seen_at,
       coalesce(s.healthy, 0)::int as healthy, coalesce(s.errored, 0)::int as errored,
       coalesce(s.abnormal, 0)::int as abnormal, coalesce(s.crashed, 0)::int as crashed,
       coalesce(u.total, 0)::int as users, coalesce(u.crashed, 0)::int as crashed_users,
       coalesce(a.sessions, 0)::int as adoption_sessions,
       (select coalesce(sum(healthy + errored + abnormal + crashed), 0) from session_minutes
         where project_id = $1::uuid and ($2::text is null or environment = $2::text)
           and minute >= $7::timestamptz)::int as adoption_all
  from rel
  left join lateral (
    select sum(healthy) as healthy, sum(errored) as errored, sum(abnormal) as abnormal,
           sum(crashed) as crashed
      from session_minutes m
     where m.project_id = $1::uuid and m.release = rel.version
       and ($2::text is null or m.environment = $2::text)
       and m.minute >= $3::timestamptz and m.minute < $4::timestamptz
  ) s on true
  left join lateral (
    -- One group per user (a hash, not the sort count(distinct) needs over every user hour).
    select count(*) as total, count(*) filter (where crashed) as crashed
      from (select bool_or(su.crashed) as crashed
              from session_users su
             where su.project_id = $1::uuid and su.release = rel.version
               and ($2::text is null or su.environment = $2::text)
               and su.hour >= $5::timestamptz and su.hour < $6::timestamptz
             group by su.did) per_user
  ) u on true
  left join lateral (
    select sum(healthy + errored + abnormal + crashed) as sessions
      from session_minutes m
     where m.project_id = $1::uuid and m.release = rel.version
       and ($2::text is null or m.environment = $2::text) and m.minute >= $7::timestamptz
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

/** The seven window parameters of {@link HEALTH}. */
function windowParams(q: ReleaseWindow): SqlParam[] {
  const firstHour = Math.floor(q.since.getTime() / HOUR_MS) * HOUR_MS
  const endHour = Math.max(Math.ceil(q.until.getTime() / HOUR_MS) * HOUR_MS, firstHour + HOUR_MS)
  return [
    q.projectId,
    q.environment,
    q.since,
    q.until,
    new Date(firstHour),
    new Date(endHour),
    q.adoptionSince,
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
           having max(last_seen_at) >= $3::timestamptz and min(first_seen_at) < $4::timestamptz
              and ($9::timestamptz is null or (max(last_seen_at), version) < ($9::timestamptz, $10::text))
            order by max(last_seen_at) desc, version desc
            limit $8::int
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
            where project_id = $1::uuid and version = $8::text
              and ($2::text is null or environment = $2::text)
            group by version
         )
         ${HEALTH}`,
        [...windowParams(q), q.version],
      )
      return rows[0] ? toRelease(rows[0]) : null
    },

    async releaseSeries(q) {
      const rows = await db.query<Row>(
        `select date_bin(make_interval(secs => $5::int), minute, $3::timestamptz) as at,
                sum(healthy + errored + abnormal + crashed)::int as sessions,
                sum(errored)::int as errored, sum(crashed)::int as crashed
           from session_minutes
          where project_id = $1::uuid and release = $6::text
            and ($2::text is null or environment = $2::text)
            and minute >= $3::timestamptz and minute < $4::timestamptz
          group by 1 order by 1`,
        [q.projectId, q.environment, q.since, q.until, q.bucketSeconds, q.version],
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
