import type { OutboxRecord, OutboxSessionMinuteRow } from '@tis/ingest'
import { atOrAfter, type LogPosition } from '../log/position'

/** One entry of a claimed range, as the range query reads it. */
export interface RangeRow {
  seq: number
  xid: string
  kind: 'event' | 'span' | 'check_in' | 'session'
  received_at: Date
  /** An event's or span's stored row; a session entry's touched minutes (an array); or null. */
  row: Record<string, unknown> | Record<string, unknown>[] | null
}

/** How the records of a range are marked as retries. */
export interface RetryMarks {
  /** The end of the furthest range ever handed out: entries up to it may be stored already. */
  readonly sent: LogPosition | null
  /** Attempts of this claim (earlier claims of the range that ended unacknowledged). */
  readonly attempts: number
}

const minuteKey = (m: OutboxSessionMinuteRow) =>
  `${m.project_id}\u0000${m.release}\u0000${m.environment}\u0000${Date.parse(m.minute)}`

/**
 * The records of a range in log order: each event and span, and each minute a session entry
 * touched. A minute several entries of the range touched is exported once, at the last of them:
 * one read gave them all the same counts and version.
 */
export function recordsOf(entries: readonly RangeRow[], marks: RetryMarks): OutboxRecord[] {
  const records: (OutboxRecord | undefined)[] = []
  const minutes = new Map<string, number>()
  for (const e of entries) {
    if (e.row === null || e.kind === 'check_in') continue
    const retried = marks.sent !== null && atOrAfter(marks.sent, { xid: e.xid, seq: Number(e.seq) })
    const base = {
      seq: String(e.seq),
      attempts: retried ? Math.max(1, marks.attempts) : 0,
      enqueuedAt: e.received_at,
    }
    if (e.kind !== 'session') {
      records.push(
        e.kind === 'span'
          ? { ...base, kind: 'span', row: e.row as never }
          : { ...base, kind: 'event', row: e.row as never },
      )
      continue
    }
    for (const row of Array.isArray(e.row) ? (e.row as unknown as OutboxSessionMinuteRow[]) : []) {
      const key = minuteKey(row)
      const earlier = minutes.get(key)
      if (earlier !== undefined) records[earlier] = undefined
      minutes.set(key, records.length)
      records.push({ ...base, kind: 'session_minute', row })
    }
  }
  return records.filter((r): r is OutboxRecord => r !== undefined)
}
