import type { SqlExecutor } from '../executor'

/** The consumer name of the analytics export in `log_consumers`. */
export const ANALYTICS = 'analytics'

// At the head: the last entry in log order (nothing when the log is empty). Entries already in
// the log are not exported: analytics covers what is accepted from then on, as it always has.
const ATTACH = /* sql */ `
insert into log_consumers (name, xid, seq, updated_at)
select $1, coalesce(head.xid, '0'::xid8), coalesce(head.seq, 0), now()
  from (select 1) one
  left join lateral (
    select xid, seq from ingest_log order by xid desc, seq desc limit 1
  ) head on true
on conflict (name) do nothing`

/**
 * Creates the analytics consumer at the log's head unless it exists: from then on every
 * projected event and span is exported. Run when a store opens with the analytics store enabled;
 * while the consumer exists the log keeps every segment it has not read (partitions.ts).
 */
export async function attachAnalytics(db: SqlExecutor): Promise<void> {
  await db.query(ATTACH, [ANALYTICS])
}

/**
 * Removes the analytics consumer, for turning the analytics store off for good: nothing holds
 * the log's segments for it any more. A store opened with the analytics store enabled attaches
 * it again, at the head. Resolves whether there was one.
 */
export async function detachAnalytics(db: SqlExecutor): Promise<boolean> {
  const rows = await db.query(`delete from log_consumers where name = $1 returning name`, [
    ANALYTICS,
  ])
  return rows.length > 0
}
