import type { RateLimitStore } from '@tis/ingest'
import type { SqlExecutor } from './executor'

/**
 * The shared fixed-window counters. One statement increments every counter of a tick: rows are
 * taken in key order so two instances incrementing overlapping keys never deadlock, and each
 * row's `count` after the update is the total over every instance.
 */
export function createRateLimitQueries(db: SqlExecutor): RateLimitStore {
  return {
    async incrementWindows(increments) {
      if (increments.length === 0) return []
      const rows = await db.query<{ key: string; window_start: number; count: number }>(
        `insert into rate_limit_windows as w (key, window_start, count, expires_at)
         select t.k, t.s::bigint, t.n::bigint, to_timestamp(t.s::bigint + t.p::bigint)
           from unnest($1::text[], $2::text[], $3::text[], $4::text[]) as t (k, s, n, p)
          order by t.k, t.s
         on conflict (key, window_start) do update set count = w.count + excluded.count
         returning w.key, w.window_start, w.count`,
        [
          increments.map((i) => i.key),
          increments.map((i) => String(i.windowStart)),
          increments.map((i) => String(i.count)),
          increments.map((i) => String(i.windowSeconds)),
        ],
      )
      const totals = new Map(rows.map((r) => [`${r.window_start}:${r.key}`, Number(r.count)]))
      return increments.map((i) => totals.get(`${i.windowStart}:${i.key}`) ?? 0)
    },

    async pruneWindows(before) {
      await db.query('delete from rate_limit_windows where expires_at < $1::timestamptz', [before])
    },
  }
}
