import type {
  AnalyticsOutbox,
  OutboxClaim,
  OutboxEventRow,
  OutboxRecord,
  OutboxSpanRow,
} from '@tis/ingest'

interface Entry {
  record: OutboxRecord
  availableAt: number
  lease?: { id: string; until: number }
}

/** An in-memory {@link AnalyticsOutbox} for tests, with the PostgreSQL outbox's semantics. */
export interface MemoryOutbox extends AnalyticsOutbox {
  /** Queues rows as records (attempts 0). */
  enqueue(
    ...rows: ({ kind: 'event'; row: OutboxEventRow } | { kind: 'span'; row: OutboxSpanRow })[]
  ): void
  /** Records still queued, oldest first. */
  records(): OutboxRecord[]
}

/**
 * Claims lease the oldest available, unleased records; a claim whose lease expired counts as an
 * attempt that ended without an acknowledgement, like `release`. With `ignoreRetryAt`, released
 * records are available again at once (tests that must not wait out real backoff delays).
 */
export function createMemoryOutbox(
  options: { now?: () => number; ignoreRetryAt?: boolean } = {},
): MemoryOutbox {
  const now = options.now ?? Date.now
  const entries: Entry[] = []
  let seq = 0
  let leases = 0
  const held = (entry: Entry, claim: OutboxClaim) =>
    entry.lease?.id === claim.lease && entry.lease.until > now()
  return {
    enqueue(...rows) {
      for (const row of rows) {
        seq += 1
        entries.push({
          record: {
            ...row,
            seq: String(seq),
            attempts: 0,
            enqueuedAt: new Date(now()),
          } as OutboxRecord,
          availableAt: 0,
        })
      }
    },
    records: () => entries.map((e) => e.record),
    async claim(limit, leaseMs) {
      const at = now()
      const lease = `lease-${++leases}`
      const records: OutboxRecord[] = []
      for (const entry of entries) {
        if (records.length >= limit) break
        if (entry.availableAt > at) continue
        if (entry.lease && entry.lease.until > at) continue
        if (entry.lease) entry.record = { ...entry.record, attempts: entry.record.attempts + 1 }
        entry.lease = { id: lease, until: at + leaseMs }
        records.push(entry.record)
      }
      return { lease, records }
    },
    async complete(claim) {
      for (let i = entries.length - 1; i >= 0; i--) {
        const entry = entries[i]
        if (entry && held(entry, claim)) entries.splice(i, 1)
      }
    },
    async release(claim, retryAt) {
      for (const entry of entries) {
        if (!held(entry, claim)) continue
        delete entry.lease
        entry.record = { ...entry.record, attempts: entry.record.attempts + 1 }
        entry.availableAt = options.ignoreRetryAt ? 0 : (retryAt?.getTime() ?? 0)
      }
    },
    async stats() {
      const oldest = entries[0]
      return { depth: entries.length, oldestEnqueuedAt: oldest ? oldest.record.enqueuedAt : null }
    },
  }
}
