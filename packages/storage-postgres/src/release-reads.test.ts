import { describe, expect, it } from 'vitest'
import { windowParams } from './release-reads'

const at = (iso: string) => new Date(iso)
const window = (since: string, until: string) =>
  windowParams({
    projectId: 'p',
    environment: null,
    since: at(since),
    until: at(until),
    adoptionSince: at('2026-12-01T10:30:00Z'),
  })

describe('the windows of the release reads', () => {
  it('sums whole hours and the minutes of the partial hours at each end', () => {
    const [, , first, hoursFrom, hoursTo, end, userFrom, userTo, adoption] = window(
      '2026-12-01T10:15:30Z',
      '2026-12-02T08:40:00Z',
    )
    // Minutes at or after since (10:16 is the first whole one) and before until.
    expect(first).toEqual(at('2026-12-01T10:16:00Z'))
    expect(hoursFrom).toEqual(at('2026-12-01T11:00:00Z'))
    expect(hoursTo).toEqual(at('2026-12-02T08:00:00Z'))
    expect(end).toEqual(at('2026-12-02T08:40:00Z'))
    // Users over the hours since and until fall in: 10:00 to 09:00 the next day.
    expect(userFrom).toBe(Date.parse('2026-12-01T10:00:00Z') / 3_600_000)
    expect(userTo).toBe(Date.parse('2026-12-02T09:00:00Z') / 3_600_000)
    expect(adoption).toEqual(at('2026-12-01T10:00:00Z'))
  })

  it('takes minutes alone when no hour is whole, and one hour of users at least', () => {
    const [, , first, hoursFrom, hoursTo, end, userFrom, userTo] = window(
      '2026-12-01T10:15:00Z',
      '2026-12-01T10:45:00Z',
    )
    expect([first, hoursFrom, hoursTo, end]).toEqual([
      at('2026-12-01T10:15:00Z'),
      at('2026-12-01T10:45:00Z'),
      at('2026-12-01T10:45:00Z'),
      at('2026-12-01T10:45:00Z'),
    ])
    expect((userTo as number) - (userFrom as number)).toBe(1)
  })

  it('needs no edge minutes on whole hours', () => {
    const [, , first, hoursFrom, hoursTo, end] = window(
      '2026-12-01T10:00:00Z',
      '2026-12-01T12:00:00Z',
    )
    expect([first, hoursFrom, hoursTo, end]).toEqual([
      at('2026-12-01T10:00:00Z'),
      at('2026-12-01T10:00:00Z'),
      at('2026-12-01T12:00:00Z'),
      at('2026-12-01T12:00:00Z'),
    ])
  })
})
