import type { SqlExecutor } from '../executor'

/** A place in the ingest log: consumers read in `(xid, seq)` order. */
export interface LogPosition {
  /** xid8 as decimal text. */
  readonly xid: string
  readonly seq: number
}

/** True when `a` is at or after `b` in log order. */
export function atOrAfter(a: LogPosition, b: LogPosition): boolean {
  const ax = BigInt(a.xid)
  const bx = BigInt(b.xid)
  return ax > bx || (ax === bx && a.seq >= b.seq)
}

// The last committed entry the consumer has not read yet (a backward index scan from the end
// that stops at the position): nothing when it is caught up, which is the common case.
const PENDING_TARGET = /* sql */ `
select l.xid::text as xid, l.seq
  from log_consumers c
  join lateral (
    select xid, seq from ingest_log
     where (xid, seq) > (c.xid, c.seq)
     order by xid desc, seq desc limit 1
  ) l on true
 where c.name = $1`

const POSITION = /* sql */ `
select xid::text as xid, seq from log_consumers where name = $1`

// How far a consumer is behind: entries committed but not read (counted up to a cap, so a
// large backlog costs a bounded scan) and the age of the oldest of them.
const LAG = /* sql */ `
select count(*)::int as records, min(l.received_at) as oldest
  from log_consumers c
  cross join lateral (
    select received_at from ingest_log
     where (xid, seq) > (c.xid, c.seq)
     order by xid, seq limit $2::int
  ) l
 where c.name = $1`

/**
 * The last entry committed now that consumer `name` has not read; `null` when it has read
 * everything committed. A read that waits until the consumer is {@link atOrAfter} it sees every
 * write acknowledged before it began.
 */
export async function pendingTarget(db: SqlExecutor, name: string): Promise<LogPosition | null> {
  const [row] = await db.query<{ xid: string; seq: number }>(PENDING_TARGET, [name])
  return row ? { xid: row.xid, seq: Number(row.seq) } : null
}

/** Consumer `name`'s position; `null` when there is no such consumer. */
export async function consumerPosition(db: SqlExecutor, name: string): Promise<LogPosition | null> {
  const [row] = await db.query<{ xid: string; seq: number }>(POSITION, [name])
  return row ? { xid: row.xid, seq: Number(row.seq) } : null
}

/** How far behind a consumer is. */
export interface ConsumerLag {
  /** Committed entries not read yet, counted up to the cap given. */
  readonly records: number
  /** Receive time of the oldest of them; `null` when there is none. */
  readonly oldestReceivedAt: Date | null
}

/** The lag of consumer `name`, counting at most `cap` entries. */
export async function consumerLag(
  db: SqlExecutor,
  name: string,
  cap = 100_000,
): Promise<ConsumerLag> {
  const [row] = await db.query<{ records: number; oldest: Date | null }>(LAG, [name, cap])
  return { records: row?.records ?? 0, oldestReceivedAt: row?.oldest ?? null }
}
