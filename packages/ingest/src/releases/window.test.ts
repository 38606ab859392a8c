import { describe, expect, it } from 'vitest'
import { decodeReleaseCursor, encodeReleaseCursor, parseReleaseListQuery } from './query'
import { freeRate, releaseJson, seriesInterval, sessionMinutes, userHours } from './window'

const at = (iso: string) => new Date(iso)

describe('the window arithmetic of release health', () => {
  it('counts users over whole hours, at least one', () => {
    expect(userHours(at('2026-12-01T10:15:00Z'), at('2026-12-01T12:05:00Z'))).toEqual({
      since: at('2026-12-01T10:00:00Z'),
      until: at('2026-12-01T13:00:00Z'),
    })
    expect(userHours(at('2026-12-01T10:00:00Z'), at('2026-12-01T10:00:01Z')).until).toEqual(
      at('2026-12-01T11:00:00Z'),
    )
    expect(userHours(at('2026-12-01T10:00:00Z'), at('2026-12-01T11:00:00Z')).until).toEqual(
      at('2026-12-01T11:00:00Z'),
    )
  })

  it('sums whole minutes', () => {
    expect(sessionMinutes(at('2026-12-01T10:15:30Z'), at('2026-12-01T10:20:10Z'))).toEqual({
      since: at('2026-12-01T10:15:00Z'),
      until: at('2026-12-01T10:21:00Z'),
    })
  })

  it('cuts a series into at most 120 buckets of a nice width', () => {
    const from = at('2026-11-01T00:00:00Z')
    const after = (hours: number) => new Date(from.getTime() + hours * 3_600_000)
    expect(seriesInterval(from, after(1))).toBe(60)
    expect(seriesInterval(from, after(24))).toBe(900)
    expect(seriesInterval(from, after(24 * 7))).toBe(3_600 * 6)
    expect(seriesInterval(from, after(24 * 30))).toBe(21_600)
    expect(seriesInterval(from, after(24 * 90))).toBe(86_400)
    expect(seriesInterval(from, after(24 * 400))).toBe(604_800)
  })

  it('defaults to the 30 days before now, adoption to the last 24 hours', () => {
    const now = at('2026-12-01T12:00:00Z')
    const q = parseReleaseListQuery('p', {}, now)
    expect(q.ok && q.value).toMatchObject({
      since: at('2026-11-01T12:00:00Z'),
      until: now,
      adoptionSince: at('2026-11-30T12:00:00Z'),
      environment: null,
      limit: 50,
    })
    const bad = parseReleaseListQuery('p', { since: '2026-12-02T00:00:00Z' }, now)
    expect(bad).toEqual({ ok: false, errors: ['since must be before until'] })
    const long = parseReleaseListQuery('p', { since: '2024-01-01T00:00:00Z' }, now)
    expect(long).toEqual({ ok: false, errors: ['the window is longer than 400 days'] })
  })

  it('round-trips a cursor, any version included, and refuses a foreign one', () => {
    const token = encodeReleaseCursor(at('2026-12-01T12:00:00Z'), 'wéb 1.0+b@7')
    expect(decodeReleaseCursor(token)).toEqual({
      lastSeenAt: at('2026-12-01T12:00:00Z'),
      version: 'wéb 1.0+b@7',
    })
    expect(decodeReleaseCursor('bm90IGpzb24')).toBeNull()
    expect(parseReleaseListQuery('p', { cursor: '!!' }, new Date()).ok).toBe(false)
  })

  it('computes the rates as Sentry defines them', () => {
    expect(freeRate(0, 0)).toBeNull()
    expect(freeRate(1, 4)).toBe(0.75)
    // Aggregates may count more crashes than sessions they started: kept within 0..1.
    expect(freeRate(5, 4)).toBe(0)
    const json = releaseJson(
      {
        version: 'v',
        firstSeenAt: at('2026-12-01T00:00:00Z'),
        lastSeenAt: at('2026-12-01T01:00:00Z'),
        sessions: { healthy: 7, errored: 1, abnormal: 1, crashed: 1 },
        users: { total: 0, crashed: 0 },
        adoption: { sessions: 3, ofAll: 12 },
      },
      'production',
    )
    expect(json).toMatchObject({
      sessions: { total: 10, healthy: 7, errored: 1, abnormal: 1, crashed: 1 },
      crash_free_sessions: 0.9,
      crash_free_users: null,
      adoption: 0.25,
    })
  })
})
