import { describe, expect, it } from 'vitest'
import { retryDelayMs } from './backoff'

describe('retryDelayMs', () => {
  it.each([
    [1, 1_000],
    [2, 2_000],
    [3, 4_000],
    [6, 32_000],
    [7, 60_000],
    [100, 60_000],
  ])('failure %i waits between half of and all of %i ms', (failures, ceiling) => {
    expect(retryDelayMs(failures, () => 0)).toBe(ceiling / 2)
    expect(retryDelayMs(failures, () => 0.999_999)).toBe(ceiling)
    const delay = retryDelayMs(failures)
    expect(delay).toBeGreaterThanOrEqual(ceiling / 2)
    expect(delay).toBeLessThanOrEqual(ceiling)
  })
})
