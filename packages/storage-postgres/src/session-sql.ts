// The projection's release-health statements (docs/release-health.md), one round at a time.
// The projection is the only writer of these tables and runs one round at a time, so reading
// the stored states (`prev`) and upserting them in one statement sees no concurrent change.

/**
 * The upsert of the CTE `counts` into one of the outcome-count rollups: `table`, keyed by
 * (project, release, environment, `key`), where `key` holds `of` (an expression of `minute`).
 * Adds the counts to those stored, skipping groups whose counts all sum to zero.
 */
function upsertCounts(table: string, key: string, of: string): string {
  return /* sql */ `insert into ${table} as t (project_id, release, environment, ${key}, healthy,
    errored, abnormal, crashed)
  select project_id, release, environment, ${of}, sum(healthy), sum(errored), sum(abnormal),
         sum(crashed)
    from counts group by project_id, release, environment, ${of}
  having sum(healthy) <> 0 or sum(errored) <> 0 or sum(abnormal) <> 0 or sum(crashed) <> 0
  on conflict (project_id, release, environment, ${key}) do update set
    healthy = t.healthy + excluded.healthy,
    errored = t.errored + excluded.errored,
    abnormal = t.abnormal + excluded.abnormal,
    crashed = t.crashed + excluded.crashed
  returning 1`
}

/**
 * $1: the round's folded session states (`SessionStateRow`), one per session; $2: aggregate
 * buckets (`SessionBucketRow`). Merges each state with the stored one by the status machine's
 * rule (`mergeSessionState` of @tis/ingest), moves the session between the outcome counts of
 * its minute and hour (-1 where it was counted, +1 where it is now), adds the aggregates'
 * counts, and adds each counted user's hour to the user's hours (and to their crashed hours when
 * the session crashed), sorted, leaving a row that already holds them unchanged.
 */
export const PROJECT_SESSIONS = /* sql */ `
with input as (
  select * from jsonb_to_recordset($1::text::jsonb) as r(
    project_id uuid, sid text, release text, environment text, minute timestamptz, did text,
    counted boolean, outcome smallint, terminal boolean, seq bigint, errors int,
    updated_at timestamptz)
), buckets as (
  select * from jsonb_to_recordset($2::text::jsonb) as r(
    project_id uuid, release text, environment text, minute timestamptz, did text,
    healthy int, errored int, abnormal int, crashed int)
), prev as (
  select s.project_id, s.release, s.environment, s.minute, s.counted, s.outcome
    from session_states s join input i on s.project_id = i.project_id and s.sid = i.sid
), merged as (
  insert into session_states as s (project_id, sid, release, environment, minute, did, counted,
                                   outcome, terminal, seq, errors, updated_at)
  select project_id, sid, release, environment, minute, did, counted, outcome, terminal, seq,
         errors, updated_at from input
  on conflict (project_id, sid) do update set
    counted = s.counted or excluded.counted,
    outcome = case when s.terminal then s.outcome else greatest(s.outcome, excluded.outcome) end,
    terminal = s.terminal or excluded.terminal,
    did = coalesce(s.did, excluded.did),
    seq = greatest(s.seq, excluded.seq),
    errors = case when s.terminal then s.errors else greatest(s.errors, excluded.errors) end,
    updated_at = excluded.updated_at
  returning s.project_id, s.release, s.environment, s.minute, s.did, s.counted, s.outcome
), moves as (
  select project_id, release, environment, minute, outcome, -1 as n from prev where counted
  union all
  select project_id, release, environment, minute, outcome, 1 from merged where counted
), counts as (
  select project_id, release, environment, minute,
         coalesce(sum(n) filter (where outcome = 0), 0) as healthy,
         coalesce(sum(n) filter (where outcome = 1), 0) as errored,
         coalesce(sum(n) filter (where outcome = 2), 0) as abnormal,
         coalesce(sum(n) filter (where outcome = 3), 0) as crashed
    from moves group by project_id, release, environment, minute
  union all
  select project_id, release, environment, minute, sum(healthy), sum(errored), sum(abnormal),
         sum(crashed)
    from buckets group by project_id, release, environment, minute
), minutes as (
  ${upsertCounts('session_minutes', 'minute', 'minute')}
), hours as (
  ${upsertCounts('session_hours', 'hour', "date_trunc('hour', minute)")}
), seen as (
  select project_id, release, environment, did,
         floor(extract(epoch from minute) / 3600)::int as hour, crashed
    from (
      select project_id, release, environment, minute, did, outcome = 3 as crashed
        from merged where counted and did is not null
      union all
      select project_id, release, environment, minute, did, crashed > 0
        from buckets where did is not null
    ) both_kinds
), users as (
  insert into session_users as u (project_id, release, environment, did, hours, crashed_hours)
  select project_id, release, environment, did, array_agg(distinct hour order by hour),
         coalesce(array_agg(distinct hour order by hour) filter (where crashed), '{}')
    from seen group by project_id, release, environment, did
  on conflict (project_id, release, environment, did) do update set
    hours = array(select distinct x from unnest(u.hours || excluded.hours) x order by x),
    crashed_hours = array(
      select distinct x from unnest(u.crashed_hours || excluded.crashed_hours) x order by x)
  where not (u.hours @> excluded.hours and u.crashed_hours @> excluded.crashed_hours)
  returning 1
)
select (select count(*) from minutes)::int as minutes, (select count(*) from hours)::int as hours,
       (select count(*) from users)::int as users`

/** $1: the round's releases (`ReleaseRow`): each (release, environment) seen, first and last. */
export const UPSERT_RELEASES = /* sql */ `
insert into releases as r (project_id, version, environment, first_seen_at, last_seen_at)
select project_id, version, environment, first_seen_at, last_seen_at
  from jsonb_to_recordset($1::text::jsonb) as x(
    project_id uuid, version text, environment text, first_seen_at timestamptz,
    last_seen_at timestamptz)
 order by project_id, version, environment
on conflict (project_id, version, environment) do update set
  first_seen_at = least(r.first_seen_at, excluded.first_seen_at),
  last_seen_at = greatest(r.last_seen_at, excluded.last_seen_at)`
