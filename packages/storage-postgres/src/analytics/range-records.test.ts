import { describe, expect, it } from 'vitest'
import { type RangeRow, recordsOf } from './range-records'

const at = new Date('2026-01-01T00:00:00Z')
const minute = (m: string, healthy: number) => ({
  project_id: 'p',
  release: 'r@1',
  environment: 'production',
  minute: m,
  healthy,
  errored: 0,
  abnormal: 0,
  crashed: 0,
  version: '9',
})
const entry = (seq: number, kind: RangeRow['kind'], row: RangeRow['row']): RangeRow => ({
  seq,
  xid: '5',
  kind,
  received_at: at,
  row,
})

describe('recordsOf', () => {
  it('keeps log order, skips check-ins and rowless entries, one record per touched minute', () => {
    const records = recordsOf(
      [
        entry(1, 'event', { id: 'e' }),
        entry(2, 'session', [minute('2026-01-01T10:00:00+00:00', 1)]),
        entry(3, 'check_in', { id: 'c' }),
        entry(4, 'span', { id: 's' }),
        entry(5, 'session', null),
        // The same minute spelt otherwise: one key, exported at its last entry.
        entry(6, 'session', [
          minute('2026-01-01T10:00:00.000Z', 2),
          minute('2026-01-01T10:01:00Z', 1),
        ]),
      ],
      { sent: null, attempts: 0 },
    )
    expect(
      records.map((r) => [r.seq, r.kind, r.kind === 'session_minute' && r.row.healthy]),
    ).toEqual([
      ['1', 'event', false],
      ['4', 'span', false],
      ['6', 'session_minute', 2],
      ['6', 'session_minute', 1],
    ])
  })

  it('marks entries up to the furthest range handed out as retries', () => {
    const records = recordsOf(
      [entry(1, 'session', [minute('2026-01-01T10:00:00Z', 1)]), entry(2, 'event', { id: 'e' })],
      { sent: { xid: '5', seq: 1 }, attempts: 2 },
    )
    expect(records.map((r) => r.attempts)).toEqual([2, 0])
  })
})
