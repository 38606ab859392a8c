import type { OutboxRecord } from '@tis/ingest'
import type { Row, SqlExecutor } from '../executor'

// The `analytics_outbox` table: records queued one by one by a `writeBatch` outside the log
// (and whatever a version before the analytics cursor left there), claimed with per-row leases.
// A record whose lease ran out without `complete` or `release` (its drainer died) is claimable
// again and counts as a retry, so the next drainer checks what already arrived before
// re-sending it. `complete` and `release` find a claim's rows by lease (range-claim.ts).
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

/** Leases up to `limit` of the oldest available queued records to `lease`, oldest first. */
export async function claimQueued(
  db: SqlExecutor,
  limit: number,
  leaseMs: number,
  lease: string,
): Promise<OutboxRecord[]> {
  if (limit <= 0) return []
  const rows = await db.query(CLAIM, [limit, lease, leaseMs])
  return rows.map(toRecord).sort((a, b) => (BigInt(a.seq) < BigInt(b.seq) ? -1 : 1))
}

/** How many records are queued, and when the oldest was. */
export async function queuedStats(
  db: SqlExecutor,
): Promise<{ depth: number; oldest: Date | null }> {
  const [row] = await db.query<{ depth: number; oldest: Date | null }>(STATS)
  return { depth: row?.depth ?? 0, oldest: row?.oldest ?? null }
}
