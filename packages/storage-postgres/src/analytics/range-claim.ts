import type { OutboxRecord } from '@tis/ingest'
import type { SqlExecutor } from '../executor'
import { atOrAfter, type LogPosition } from '../log/position'
import { PROJECTION } from '../log/project'
import { type RangeRow, recordsOf } from './range-records'

// The consumer row is locked for the claim: two drainers take turns (the second skips and
// gets no range), and `complete` / `release` wait for the claim that is deciding.
const LOCK = /* sql */ `
select xid::text as xid, seq, lease is not null as leased,
       coalesce(leased_until > now(), false) as held,
       coalesce(available_at > now(), false) as waiting,
       attempts, sent_xid::text as sent_xid, sent_seq
  from log_consumers where name = $1 for update skip locked`

// The fields of an exported event and span (OutboxEventRow, OutboxSpanRow).
const EVENT_FIELDS = `e.id, e.project_id, e.event_type, e.level, e.message, e.fingerprint,
  e.occurred_at, e.received_at, e.environment, e.release, e.trace_id, e.request_id, e.session_id,
  e.user_id, e.transaction_name, e.duration_ms, e.issue_id, e.payload`
const SPAN_FIELDS = `s.id, s.project_id, s.trace_id, s.span_id, s.parent_span_id, s.name, s.kind,
  s.started_at, s.ended_at, s.duration_ms, s.environment, s.release, s.received_at, s.payload`

// The keys a session entry touched, and their current counts (SESSION_FIELDS): an update's
// session as `session_states` holds it (the release, environment and minute it started in), an
// aggregate's buckets under the op's release and environment. The version is the log's newest
// seq at the read: a later claim (a retry, a takeover) reads counts at least as new and never
// carries a lower one, which an entry's own seq would not promise, as seqs are drawn before the
// transaction's xid that orders the log.
const SESSION_FIELDS = `m.project_id, m.release, m.environment, m.minute, m.healthy, m.errored,
  m.abnormal, m.crashed, (select last_value from ingest_log_seq)::text as version`
const SESSION_KEYS = `
  select s.project_id, s.release, s.environment, s.minute from session_states s
   where r.record->'op'->'session'->>'kind' = 'update'
     and s.project_id = r.project_id and s.sid = r.record->'op'->'session'->>'sid'
  union
  select r.project_id, r.record->'op'->'session'->>'release',
         r.record->'op'->'session'->>'environment', (b->>'started')::timestamptz
    from jsonb_array_elements(case when r.record->'op'->'session'->>'kind' = 'aggregate'
           then r.record->'op'->'session'->'buckets' else '[]'::jsonb end) b`

// Entries after the position that the projection has passed, so their rows are stored: each
// event and span as its stored row, each session entry as the current counts of the minutes it
// touched (a JSON array); a check-in, an entry the projection set aside, or one whose id a row
// an old version wrote outside the log already had (its legacy_id is not the entry's seq; that
// version queued the row for export itself) has none. Ordered by the log, so a retry of the
// range reads the same entries in the same order. `row_to_json` (text) costs about half of
// `to_jsonb` here, on the server and in the driver. Only a session entry's record is read.
const RANGE = /* sql */ `
select r.seq, r.xid::text as xid, r.kind, r.received_at,
       case r.kind
         when 'event' then (select row_to_json(x) from (select ${EVENT_FIELDS}
           from events e where e.id = r.id and e.legacy_id = r.seq) x)
         when 'span' then (select row_to_json(x) from (select ${SPAN_FIELDS}
           from spans s where s.id = r.id and s.legacy_id = r.seq) x)
         when 'session' then (select json_agg(x) from (select ${SESSION_FIELDS}
           from session_minutes m
          where (m.project_id, m.release, m.environment, m.minute) in (${SESSION_KEYS})) x)
       end as row
  from (
    select l.seq, l.xid, l.id, l.kind, l.received_at, l.project_id,
           case when l.kind = 'session' then l.record end as record
      from ingest_log l
      cross join (select xid, seq from log_consumers where name = '${PROJECTION}') p
     where (l.xid, l.seq) > ($1::xid8, $2::bigint)
       and (l.xid, l.seq) <= (p.xid, p.seq)
     order by l.xid, l.seq
     limit $3::int
  ) r
 order by r.xid, r.seq`

const LEASE = /* sql */ `
update log_consumers set
  lease = $2::uuid, leased_until = now() + $3::int * interval '1 millisecond',
  lease_xid = $4::xid8, lease_seq = $5::bigint, lease_entries = $6::int,
  sent_xid = $7::xid8, sent_seq = $8::bigint, attempts = $9::int, available_at = null
 where name = $1`

// A range with nothing to export (check-ins only) is passed at once.
const PASS = /* sql */ `
update log_consumers set xid = $2::xid8, seq = $3::bigint, consumed = consumed + $4::int,
       lease = null, leased_until = null, lease_xid = null, lease_seq = null, lease_entries = null,
       attempts = 0, updated_at = now()
 where name = $1`

/** Moves consumer `$1` to the end of the range leased to `$2`, if it still holds it. */
export const COMPLETE_RANGE = /* sql */ `
update log_consumers set
  xid = lease_xid, seq = lease_seq, consumed = consumed + lease_entries,
  lease = null, leased_until = null, lease_xid = null, lease_seq = null, lease_entries = null,
  attempts = 0, updated_at = now()
 where name = $1 and lease = $2::uuid`

/** Drops lease `$2` of consumer `$1`: its range is claimable again at `$3`, attempts + 1. */
export const RELEASE_RANGE = /* sql */ `
update log_consumers set
  lease = null, leased_until = null, lease_xid = null, lease_seq = null, lease_entries = null,
  attempts = attempts + 1, available_at = greatest(now(), $3::timestamptz)
 where name = $1 and lease = $2::uuid`

interface ConsumerRow {
  xid: string
  seq: number
  leased: boolean
  held: boolean
  waiting: boolean
  attempts: number
  sent_xid: string | null
  sent_seq: number | null
}

/** Passes ranges with nothing to export at most this many times per claim. */
const MAX_PASSES = 10

/** What {@link claimRange} leased. */
export interface RangeOptions {
  readonly consumer: string
  readonly limit: number
  readonly leaseMs: number
  readonly lease: string
}

/**
 * Leases to `lease` the range of up to `limit` entries after the consumer's position that the
 * projection has passed, inside the caller's transaction, and resolves its events and spans, and
 * the current counts of the minutes its session entries touched, in log order. Nothing when the consumer does not exist, another drainer holds an unexpired
 * lease or is claiming, a released range waits for its retry time, or nothing is projected.
 * Taking over an expired lease counts as a retry; every record up to the furthest range ever
 * handed out is marked as one (`attempts` ≥ 1), so the sink looks it up before re-sending it.
 */
export async function claimRange(tx: SqlExecutor, options: RangeOptions): Promise<OutboxRecord[]> {
  const { consumer, limit, lease } = options
  if (limit <= 0) return []
  const [row] = await tx.query<ConsumerRow>(LOCK, [consumer])
  if (!row || row.held || row.waiting) return []
  let position: LogPosition = { xid: row.xid, seq: Number(row.seq) }
  const sent: LogPosition | null =
    row.sent_xid === null ? null : { xid: row.sent_xid, seq: Number(row.sent_seq) }
  const attempts = row.attempts + (row.leased ? 1 : 0)
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const entries = await tx.query<RangeRow>(RANGE, [position.xid, position.seq, limit])
    const last = entries[entries.length - 1]
    if (!last) return []
    const end: LogPosition = { xid: last.xid, seq: Number(last.seq) }
    const records = recordsOf(entries, { sent, attempts })
    if (records.length === 0) {
      await tx.query(PASS, [consumer, end.xid, end.seq, entries.length])
      position = end
      continue
    }
    const furthest = sent !== null && atOrAfter(sent, end) ? sent : end
    await tx.query(LEASE, [
      consumer,
      lease,
      Math.max(1, Math.round(options.leaseMs)),
      end.xid,
      end.seq,
      entries.length,
      furthest.xid,
      furthest.seq,
      attempts,
    ])
    return records
  }
  return []
}
