import { randomUUID } from 'node:crypto'
import type { AnalyticsOutbox, OutboxClaim, OutboxRecord } from '@tis/ingest'
import type { Row, SqlExecutor } from './executor'

// Leases the oldest available records. A record whose lease ran out without `complete` or
// `release` (its drainer died) is claimable again and counts as a retry, so the next drainer
// checks what already arrived before re-sending it.
const CLAIM = /* sql */ `
with picked as (
  select seq from analytics_outbox
   where available_at <= now() and (leased_until is null or leased_until < now())
   order by seq limit $1::int
   for update skip locked
)
update analytics_outbox o set
  lease = $2::uuid,
  leased_until = now() + $3::int * interval '1 millisecond',
  attempts = o.attempts + case when o.lease is null then 0 else 1 end
from picked where o.seq = picked.seq
returning o.seq::text as seq, o.kind, o.row, o.attempts, o.enqueued_at`

// Claimed records lie between the claim's smallest and largest seq: the primary key bounds the
// scan, the lease picks ours.
const COMPLETE = /* sql */ `
delete from analytics_outbox
 where seq between $1::bigint and $2::bigint and lease = $3::uuid`

const RELEASE = /* sql */ `
update analytics_outbox set
  lease = null, leased_until = null, attempts = attempts + 1,
  available_at = greatest(now(), $4::timestamptz)
 where seq between $1::bigint and $2::bigint and lease = $3::uuid`

const STATS = /* sql */ `
select count(*)::int as depth, min(enqueued_at) as oldest from analytics_outbox`

function toRecord(row: Row): OutboxRecord {
  const base = {
    seq: row['seq'] as string,
    attempts: row['attempts'] as number,
    enqueuedAt: row['enqueued_at'] as Date,
  }
  return row['kind'] === 'span'
    ? { ...base, kind: 'span', row: row['row'] as never }
    : { ...base, kind: 'event', row: row['row'] as never }
}

/** The seq range of a claim (as text: seq is a bigint). */
function bounds(claim: OutboxClaim): [string, string] | null {
  if (claim.records.length === 0) return null
  let lo = BigInt(claim.records[0]!.seq)
  let hi = lo
  for (const r of claim.records) {
    const s = BigInt(r.seq)
    if (s < lo) lo = s
    if (s > hi) hi = s
  }
  return [lo.toString(), hi.toString()]
}

/** The analytics outbox over one executor (`FOR UPDATE SKIP LOCKED` leases). */
export function createOutboxQueries(db: SqlExecutor): AnalyticsOutbox {
  return {
    async claim(limit, leaseMs) {
      const lease = randomUUID()
      const rows = await db.query(CLAIM, [limit, lease, Math.max(1, Math.round(leaseMs))])
      const records = rows.map(toRecord).sort((a, b) => (BigInt(a.seq) < BigInt(b.seq) ? -1 : 1))
      return { lease, records }
    },
    async complete(claim) {
      const range = bounds(claim)
      if (range) await db.query(COMPLETE, [...range, claim.lease])
    },
    async release(claim, retryAt = new Date(0)) {
      const range = bounds(claim)
      if (range) await db.query(RELEASE, [...range, claim.lease, retryAt])
    },
    async stats() {
      const [row] = await db.query(STATS)
      return {
        depth: (row?.['depth'] as number | undefined) ?? 0,
        oldestEnqueuedAt: (row?.['oldest'] as Date | null | undefined) ?? null,
      }
    },
  }
}
