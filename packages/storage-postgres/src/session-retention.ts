import type { SqlExecutor } from './executor'

// Retention of release health (docs/release-health.md): a project's per-minute and per-hour
// session aggregates, its users' hours and its session states older than its cutoff go in
// batches, through their (project, time) indexes (a user's row is trimmed, and goes once empty). The `releases` rows stay (a name and two dates each), as
// deployments do.

const DELETE = {
  minutes: /* sql */ `
delete from session_minutes m
 using (select release, environment, minute from session_minutes
         where project_id = $1::uuid and minute < $2::timestamptz
         order by minute limit $3::int) doomed
 where m.project_id = $1::uuid and m.release = doomed.release
   and m.environment = doomed.environment and m.minute = doomed.minute`,
  hours: /* sql */ `
delete from session_hours h
 using (select release, environment, hour from session_hours
         where project_id = $1::uuid and hour < date_trunc('hour', $2::timestamptz)
         order by hour limit $3::int) doomed
 where h.project_id = $1::uuid and h.release = doomed.release
   and h.environment = doomed.environment and h.hour = doomed.hour`,
  // A user's hours before the cutoff's hour go; a user left without any goes.
  users: /* sql */ `
with due as (
  select release, environment, did from session_users
   where project_id = $1::uuid and hours[1] < floor(extract(epoch from $2::timestamptz) / 3600)
   limit $3::int
), trimmed as (
  update session_users u set
    hours = array(select x from unnest(u.hours) x
                   where x >= floor(extract(epoch from $2::timestamptz) / 3600) order by x),
    crashed_hours = array(select x from unnest(u.crashed_hours) x
                   where x >= floor(extract(epoch from $2::timestamptz) / 3600) order by x)
    from due
   where u.project_id = $1::uuid and u.release = due.release
     and u.environment = due.environment and u.did = due.did
  returning u.release, u.environment, u.did, cardinality(u.hours) as left_hours
), emptied as (
  delete from session_users u using trimmed t
   where t.left_hours = 0 and u.project_id = $1::uuid and u.release = t.release
     and u.environment = t.environment and u.did = t.did
)
select 1 from trimmed`,
  states: /* sql */ `
delete from session_states s
 using (select sid from session_states
         where project_id = $1::uuid and minute < $2::timestamptz
         order by minute limit $3::int) doomed
 where s.project_id = $1::uuid and s.sid = doomed.sid`,
} as const

const COUNT_MINUTES = /* sql */ `
select count(*)::int as n from session_minutes
 where project_id = $1::uuid and minute < $2::timestamptz`

/** How many minutes of session aggregates a pass would delete. */
export async function countExpiredSessions(db: SqlExecutor, projectId: string, cutoff: Date) {
  const [row] = await db.query<{ n: number }>(COUNT_MINUTES, [projectId, cutoff])
  return row?.n ?? 0
}

/**
 * Deletes a project's session aggregates, users and states older than `cutoff`, `batchSize`
 * rows per statement; resolves how many minutes of aggregates went.
 */
export async function expireSessions(
  db: SqlExecutor,
  projectId: string,
  cutoff: Date,
  batchSize: number,
  signal?: AbortSignal,
): Promise<number> {
  let minutes = 0
  for (const table of ['minutes', 'hours', 'users', 'states'] as const) {
    while (!signal?.aborted) {
      const sql = table === 'users' ? DELETE.users : `${DELETE[table]} returning 1`
      const gone = await db.query(sql, [projectId, cutoff, batchSize])
      if (table === 'minutes') minutes += gone.length
      if (gone.length < batchSize) break
    }
  }
  return minutes
}
