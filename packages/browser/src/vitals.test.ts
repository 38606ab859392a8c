import { describe, expect, it } from 'vitest'
import { cumulativeLayoutShift, interactionToNextPaint } from './vitals'

const shift = (startTime: number, value: number, hadRecentInput = false) => ({
  startTime,
  value,
  hadRecentInput,
})

describe('cumulativeLayoutShift', () => {
  it.each([
    ['no shifts score 0', [], 0],
    ['shifts less than 1 s apart form one window', [shift(0, 0.1), shift(900, 0.05)], 0.15],
    [
      'a gap of 1 s starts a new window; the largest counts',
      [shift(0, 0.1), shift(1000, 0.05), shift(1500, 0.02)],
      0.1,
    ],
    [
      'a window ends after 5 s',
      [0, 800, 1600, 2400, 3200, 4000, 4800, 5600].map((t) => shift(t, 0.01)),
      0.07,
    ],
    ['shifts after input do not count', [shift(0, 0.5, true), shift(10, 0.02)], 0.02],
  ])('%s', (_, shifts, expected) => {
    expect(cumulativeLayoutShift(shifts)).toBeCloseTo(expected, 4)
  })
})

describe('interactionToNextPaint', () => {
  it('is undefined without interactions (events without interactionId do not count)', () => {
    expect(interactionToNextPaint([])).toBeUndefined()
    expect(interactionToNextPaint([{ duration: 300, interactionId: 0 }])).toBeUndefined()
  })

  it("takes each interaction's slowest event and the longest interaction", () => {
    const events = [
      { duration: 40, interactionId: 1 },
      { duration: 120, interactionId: 1 },
      { duration: 64, interactionId: 2 },
    ]
    expect(interactionToNextPaint(events)).toBe(120)
  })

  it('skips one outlier per 50 interactions (98th percentile)', () => {
    const events = Array.from({ length: 60 }, (_, i) => ({ duration: i + 1, interactionId: i + 1 }))
    expect(interactionToNextPaint(events)).toBe(59)
  })
})
