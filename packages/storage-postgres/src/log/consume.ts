import type { SqlExecutor } from '../executor'

/** One row of the ingest log as a consumer reads it. */
export interface LogEntry {
  readonly seq: number
  /** The writing transaction (xid8, as text: it may pass 2^53). */
  readonly xid: string
  readonly projectId: string
  readonly id: string
  readonly kind: 'event' | 'span' | 'check_in'
  readonly receivedAt: Date
  readonly record: unknown
}

/** What one consumption round did. */
export interface ConsumeRound {
  /** Another process holds this consumer's position: it did nothing. */
  readonly busy: boolean
  /** Entries consumed (and the position moved past them). */
  readonly consumed: number
  /** The round was full: more entries may be ready now. */
  readonly more: boolean
}

const ASYNC_COMMIT = 'set local synchronous_commit to off'

// The position row is locked for the whole round: two processes running one consumer take
// turns (the second skips), so no entry is consumed twice.
const LOCK = /* sql */ `
select xid::text as xid, seq from log_consumers where name = $1 for update skip locked`

// Entries after the position, in (xid, seq) order, written by transactions older than every
// transaction still running: no entry can later appear before one read here. The order names
// the table's columns: a bare `xid` would be the text output column, and text order puts
// xid 10 before 9 (entries skipped past a digit boundary) and sorts the whole backlog.
const NEXT = /* sql */ `
select seq, xid::text as xid, project_id::text as project_id, id::text as id, kind,
       received_at, record
  from ingest_log
 where (xid, seq) > ($1::xid8, $2::bigint)
   and xid < pg_snapshot_xmin(pg_current_snapshot())
 order by ingest_log.xid, ingest_log.seq
 limit $3::int`

const ADVANCE = /* sql */ `
update log_consumers set xid = $2::xid8, seq = $3::bigint, consumed = consumed + $4::bigint,
       updated_at = now()
 where name = $1`

interface EntryRow {
  seq: number
  xid: string
  project_id: string
  id: string
  kind: LogEntry['kind']
  received_at: Date
  record: unknown
}

/**
 * One round of consumer `name`: in one transaction, lock its position, read up to `limit`
 * entries after it, hand them to `apply` (which writes with the same transaction) and move the
 * position past them. Everything commits together or not at all, so each entry is applied
 * exactly once even when a process dies mid-round.
 */
export async function consumeLog(
  db: SqlExecutor,
  name: string,
  limit: number,
  apply: (tx: SqlExecutor, entries: readonly LogEntry[]) => Promise<void>,
): Promise<ConsumeRound> {
  return db.transaction(async (tx) => {
    // A consumer's commit need not wait for the disk: the log it reads is durable, and a round
    // lost with an operating-system crash (its writes and its position together, as the WAL is
    // replayed in order) is simply consumed again. Appends keep synchronous commits.
    await tx.query(ASYNC_COMMIT)
    const [position] = await tx.query<{ xid: string; seq: number }>(LOCK, [name])
    if (!position) return { busy: true, consumed: 0, more: false }
    const rows = await tx.query<EntryRow>(NEXT, [position.xid, position.seq, limit])
    if (rows.length === 0) return { busy: false, consumed: 0, more: false }
    const entries = rows.map(
      (r): LogEntry => ({
        seq: Number(r.seq),
        xid: r.xid,
        projectId: r.project_id,
        id: r.id,
        kind: r.kind,
        receivedAt: r.received_at,
        record: r.record,
      }),
    )
    await apply(tx, entries)
    const last = entries[entries.length - 1]!
    await tx.query(ADVANCE, [name, last.xid, last.seq, entries.length])
    return { busy: false, consumed: entries.length, more: entries.length === limit }
  })
}

// The entry right after the position (the one a failing round starts with), if any.
const HEAD = /* sql */ `
select seq, xid::text as xid from ingest_log
 where (xid, seq) > ($1::xid8, $2::bigint)
   and xid < pg_snapshot_xmin(pg_current_snapshot())
 order by ingest_log.xid, ingest_log.seq limit 1`

const SET_ASIDE = /* sql */ `
insert into ingest_log_failures
  (seq, xid, project_id, id, kind, received_at, record, consumer, error, failed_at)
select seq, xid, project_id, id, kind, received_at, record, $3, $4, now()
  from ingest_log where xid = $1::xid8 and seq = $2::bigint`

/**
 * Moves consumer `name` past the entry right after its position, keeping the entry and `error`
 * in `ingest_log_failures`: for an entry that fails every time it is applied, so that it cannot
 * hold up every entry behind it. Resolves whether an entry was set aside.
 */
export async function setAsideHead(db: SqlExecutor, name: string, error: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [position] = await tx.query<{ xid: string; seq: number }>(LOCK, [name])
    if (!position) return false
    const [head] = await tx.query<{ xid: string; seq: number }>(HEAD, [position.xid, position.seq])
    if (!head) return false
    await tx.query(SET_ASIDE, [head.xid, head.seq, name, error.slice(0, 4_000)])
    await tx.query(ADVANCE, [name, head.xid, head.seq, 1])
    return true
  })
}
