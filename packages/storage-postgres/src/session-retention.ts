import type { SqlExecutor } from './executor'

// Retention of release health (docs/release-health.md): a project's per-minute session
// aggregates, per-hour users and session states older than its cutoff go in batches, through
// their (project, time) indexes. The `releases` rows stay (a name and two dates each), as
// deployments do.

const DELETE = {
  minutes: /* sql */ `
delete from session_minutes m
 using (select release, environment, minute from session_minutes
         where project_id = $1::uuid and minute < $2::timestamptz
         order by minute limit $3::int) doomed
 where m.project_id = $1::uuid and m.release = doomed.release
   and m.environment = doomed.environment and m.minute = doomed.minute`,
  users: /* sql */ `
delete from session_users u
 using (select release, environment, hour, did from session_users
         where project_id = $1::uuid and hour < $2::timestamptz
         order by hour limit $3::int) doomed
 where u.project_id = $1::uuid and u.release = doomed.release
   and u.environment = doomed.environment and u.hour = doomed.hour and u.did = doomed.did`,
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
  for (const table of ['minutes', 'users', 'states'] as const) {
    while (!signal?.aborted) {
      const gone = await db.query(`${DELETE[table]} returning 1`, [projectId, cutoff, batchSize])
      if (table === 'minutes') minutes += gone.length
      if (gone.length < batchSize) break
    }
  }
  return minutes
}
