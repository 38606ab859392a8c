import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createPauses } from './pauses'

describe('createPauses', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('wakes once the pause is over, and not before', () => {
    const wake = vi.fn()
    const pauses = createPauses(wake)
    expect(pauses.pause_('ingest_events', '2')).toBe(2000)
    vi.advanceTimersByTime(1999)
    expect(wake).not.toHaveBeenCalled()
    expect(pauses.left_('ingest_events')).toBe(1)
    vi.advanceTimersByTime(1)
    expect(wake).toHaveBeenCalledTimes(1)
    expect(pauses.left_('ingest_events')).toBeLessThanOrEqual(0)
  })

  it('ends with its timer, even when the wall clock has not reached the end yet', () => {
    const wake = vi.fn()
    const pauses = createPauses(wake)
    pauses.pause_('ingest_events', '1')
    // The wall clock falls 30 ms behind the timers' clock (a busy event loop's cached time).
    vi.setSystemTime(Date.now() - 30)
    vi.advanceTimersByTime(1000)
    expect(wake).toHaveBeenCalledTimes(1)
    expect(pauses.left_('ingest_events')).toBeLessThanOrEqual(0)
  })
})
