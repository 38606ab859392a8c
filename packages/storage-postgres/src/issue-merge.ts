import type { IssueMergeStore } from '@tis/ingest'
import type { SqlExecutor, SqlParam } from './executor'
import { PROJECTION } from './log/project'
import { ISSUE_COLUMNS, toIssue } from './read-rows'
import { isUuid } from './uuid'

// Merging issues (docs/issues.md#merging-issues). A merge takes the projection's position lock
// first: rounds wait for it (or skip, and run after), so the round that follows sees the
// merge's redirects (merge-follow.ts) and no event is written to a merged issue. The issues are
// then locked in id order, like every change of issue rows made outside the projection.

/** The projection's position row: held by a round for its whole transaction. */
const LOCK_PROJECTION = 'select 1 from log_consumers where name = $1 for update'

/** Each asked id, as the issue it is or was merged into (`null`: not the project's). */
const RESOLVE = /* sql */ `
select t.id::text as asked, coalesce(i.id, m.issue_id)::text as issue_id
  from unnest($2::uuid[]) as t(id)
  left join issues i on i.id = t.id and i.project_id = $1::uuid
  left join issue_merges m on m.merged_id = t.id and m.project_id = $1::uuid`

/** The issues to merge, locked in id order; the first is the one kept by default. */
const LOCK_ISSUES = /* sql */ `
select id::text as id from (
  select id, count, first_seen_at from issues
   where project_id = $1::uuid and id = any($2::uuid[]) order by id for update
) i order by count desc, first_seen_at, id`

// Each statement below takes `$1` the project, `$2` the merged ids, `$3` the kept id, `$4` the
// time and `$5` the actor; they run in this order in the merge's transaction.

/**
 * The kept issue gains the others' counts and times; its status, assignee and regressions stay
 * its own. An ignore condition counts from the merge on: the merged events raise its base.
 */
const FOLD_ISSUES = /* sql */ `
with m as (
  select * from issues where project_id = $1::uuid and id = any($2::uuid[])
), agg as (
  select sum(count) as count, min(first_seen_at) as first_seen_at,
    bool_or(spike_tracked) as spike_tracked from m
), newest as (
  select last_seen_at, level, latest_event_id, last_release from m
   order by last_seen_at desc, id limit 1
), oldest as (
  select first_seen_at, first_release from m order by first_seen_at, id limit 1
)
update issues k set count = k.count + agg.count,
  first_seen_at = least(k.first_seen_at, agg.first_seen_at),
  first_release = case when oldest.first_seen_at < k.first_seen_at
    then coalesce(oldest.first_release, k.first_release)
    else coalesce(k.first_release, oldest.first_release) end,
  last_seen_at = greatest(k.last_seen_at, newest.last_seen_at),
  level = case when newest.last_seen_at > k.last_seen_at then newest.level else k.level end,
  latest_event_id = case when newest.last_seen_at > k.last_seen_at
    then newest.latest_event_id else k.latest_event_id end,
  last_release = case when newest.last_seen_at > k.last_seen_at
    then coalesce(newest.last_release, k.last_release)
    else coalesce(k.last_release, newest.last_release) end,
  spike_tracked = k.spike_tracked or agg.spike_tracked,
  ignore_until = case when k.ignore_until ? 'count_base'
    then jsonb_set(k.ignore_until, '{count_base}',
      to_jsonb((k.ignore_until->>'count_base')::bigint + agg.count))
    else k.ignore_until end
  from agg, newest, oldest
 where k.id = $3::uuid`

/** The others' users join the kept issue's (each counted once), then its count is taken again. */
const MOVE_USERS = /* sql */ `
insert into issue_users (issue_id, user_hash)
select $3::uuid, user_hash from issue_users where issue_id = any($2::uuid[]) order by 2
on conflict do nothing`

const COUNT_USERS = /* sql */ `
with c as (select count(*) as n from issue_users where issue_id = $3::uuid)
update issues k set users = c.n,
  ignore_until = case when k.ignore_until ? 'users_base'
    then jsonb_set(k.ignore_until, '{users_base}',
      to_jsonb((k.ignore_until->>'users_base')::bigint + c.n - k.users))
    else k.ignore_until end
  from c where k.id = $3::uuid`

const MOVE_SPIKE_COUNTS = /* sql */ `
insert into alert_spike_counts as b (issue_id, minute, environment, level, count)
select $3::uuid, minute, environment, level, count from alert_spike_counts
 where issue_id = any($2::uuid[]) order by 2, 3, 4
on conflict (issue_id, minute, md5(environment), md5(level))
  do update set count = b.count + excluded.count`

const moveTo = (table: string) =>
  `update ${table} set issue_id = $3::uuid where issue_id = any($2::uuid[])`

/** One `merge` entry on the kept issue, naming what it took in. */
const RECORD = /* sql */ `
insert into issue_history (project_id, issue_id, kind, actor, data, created_at)
select $1::uuid, $3::uuid, 'merge', (select u.email from users u where u.id = $5::uuid),
  jsonb_build_object('merged', jsonb_agg(
    jsonb_build_object('id', id, 'title', title, 'count', count) order by id)), $4::timestamptz
  from issues where project_id = $1::uuid and id = any($2::uuid[])`

/** Redirects: the merged issues' own, then those that pointed at them. */
const REDIRECT = /* sql */ `
insert into issue_merges (project_id, hash, merged_id, issue_id, merged_at)
select project_id, hash, id, $3::uuid, $4::timestamptz
  from issues where project_id = $1::uuid and id = any($2::uuid[])`

const DELETE_MERGED = 'delete from issues where project_id = $1::uuid and id = any($2::uuid[])'

/** The statements of {@link IssueMergeStore}. */
export function createIssueMergeQueries(db: SqlExecutor): IssueMergeStore {
  return {
    async mergeIssues(projectId, issueIds, into, by) {
      const bad = [...issueIds, ...(into === null ? [] : [into])].find((id) => !isUuid(id))
      if (bad !== undefined) return { ok: false, missing: bad }
      return db.transaction(async (tx) => {
        await tx.query(LOCK_PROJECTION, [PROJECTION])
        const asked = [...new Set([...issueIds, ...(into === null ? [] : [into])])]
        const resolved = await tx.query<{ asked: string; issue_id: string | null }>(RESOLVE, [
          projectId,
          asked,
        ])
        const current = new Map(resolved.map((r) => [r.asked.toLowerCase(), r.issue_id]))
        const missing = asked.find((id) => !current.get(id.toLowerCase()))
        if (missing !== undefined) return { ok: false, missing }
        const ids = [...new Set(asked.map((id) => current.get(id.toLowerCase())!))]
        const locked = (await tx.query<{ id: string }>(LOCK_ISSUES, [projectId, ids])).map(
          (r) => r.id,
        )
        const keep = into === null ? locked[0]! : current.get(into.toLowerCase())!
        const merged = locked.filter((id) => id !== keep)
        if (merged.length > 0) {
          const params: SqlParam[] = [projectId, merged, keep, by.at, by.userId]
          const steps = [
            FOLD_ISSUES,
            MOVE_USERS,
            COUNT_USERS,
            MOVE_SPIKE_COUNTS,
            moveTo('events'),
            moveTo('issue_comments'),
            moveTo('issue_history'),
            RECORD,
            moveTo('issue_merges'),
            REDIRECT,
            DELETE_MERGED,
          ]
          await tx.pipeline(steps.map((text) => ({ text: typed(text), params })))
        }
        const [row] = await tx.query(
          `select ${ISSUE_COLUMNS} from issues i where i.id = $1::uuid`,
          [keep],
        )
        return { ok: true, issue: toIssue(row!), merged }
      })
    },

    async findMergedIssue(projectId, issueId) {
      if (!isUuid(issueId)) return null
      const [row] = await db.query<{ issue_id: string }>(
        `select issue_id::text as issue_id from issue_merges
          where merged_id = $2::uuid and project_id = $1::uuid`,
        [projectId, issueId],
      )
      return row?.issue_id ?? null
    },
  }
}

/**
 * A statement that declares the types of the five shared parameters, whichever it uses:
 * PostgreSQL must know the type of every parameter sent with a statement.
 */
function typed(text: string): string {
  const params = '_params as (select $1::uuid, $2::uuid[], $3::uuid, $4::timestamptz, $5::uuid)'
  const body = text.trimStart()
  return body.startsWith('with ')
    ? `with ${params}, ${body.slice('with '.length)}`
    : `with ${params} ${body}`
}
