import type { SqlExecutor } from '../executor'

const DAY_MS = 86_400_000
/** Days of partitions prepared ahead of the current one. */
const DAYS_AHEAD = 2
// Arbitrary, fixed key of the transaction-scoped advisory lock that serialises maintenance
// between server instances (two instances creating one partition would collide).
const MAINTENANCE_LOCK_KEY = 7_301_652_288_319

/**
 * A log partition's storage: records stay inline and uncompressed up to a page (see migration 20:
 * compressing a record that lives for a day cost more processor time than the disk it saved).
 */
export const LOG_STORAGE = 'toast_tuple_target = 8160'

const dayStart = (at: Date) => new Date(Math.floor(at.getTime() / DAY_MS) * DAY_MS)
const isoDay = (day: Date) => day.toISOString().slice(0, 10)
const partitionName = (day: Date) => `ingest_log_${isoDay(day).replaceAll('-', '')}`

const LIST = /* sql */ `
select c.relname as name
  from pg_inherits i join pg_class c on c.oid = i.inhrelid
 where i.inhparent = 'ingest_log'::regclass and c.relname ~ '^ingest_log_[0-9]{8}$'`

// A partition is read by every consumer when no entry of it lies after any consumer's position.
const unread = (name: string) => /* sql */ `
select exists (
  select 1 from log_consumers c
   where exists (select 1 from ${name} p where (p.xid, p.seq) > (c.xid, c.seq))
) as unread`

/** What one maintenance pass did. */
export interface LogMaintenance {
  readonly created: readonly string[]
  readonly dropped: readonly string[]
}

/**
 * Prepares the ingest log's daily partitions for today and the next {@link DAYS_AHEAD} days
 * (UTC), and drops the partitions of past days that every consumer has read: projected log
 * segments are dropped, never deleted row by row. Safe to run from several instances at once.
 */
export async function maintainLogPartitions(db: SqlExecutor, now: Date): Promise<LogMaintenance> {
  return db.transaction(async (tx) => {
    await tx.query(`select pg_advisory_xact_lock(${MAINTENANCE_LOCK_KEY})`)
    // Dropping a partition locks the parent: never queue acceptance behind it for long.
    await tx.query(`set local lock_timeout = '2s'`)
    const existing = new Set((await tx.query<{ name: string }>(LIST)).map((r) => r.name))
    const today = dayStart(now)
    const created: string[] = []
    for (let i = 0; i <= DAYS_AHEAD; i++) {
      const day = new Date(today.getTime() + i * DAY_MS)
      const name = partitionName(day)
      if (existing.has(name)) continue
      const next = new Date(day.getTime() + DAY_MS)
      await tx.query(
        `create table ${name} partition of ingest_log
           for values from ('${isoDay(day)}') to ('${isoDay(next)}') with (${LOG_STORAGE})`,
      )
      created.push(name)
    }
    const dropped: string[] = []
    for (const name of [...existing].sort()) {
      if (name >= partitionName(today)) continue
      // Lock before looking: an append that wrote to this day (a late clock) and commits after
      // the look would otherwise be dropped with the partition once the drop got its lock.
      await tx.query(`lock table ${name} in access exclusive mode`)
      const [row] = await tx.query<{ unread: boolean }>(unread(name))
      if (row?.unread) continue
      await tx.query(`drop table ${name}`)
      dropped.push(name)
    }
    return { created, dropped }
  })
}
