import { describe, expect, it } from 'vitest'
import { createFailureThrottle } from './throttle'

describe('createFailureThrottle', () => {
  it('reports the first failure of a kind, then at most once per window with the swallowed count', () => {
    let now = 0
    const throttle = createFailureThrottle(60_000, () => now)
    expect(throttle.record('insert', 'a')).toEqual({
      kind: 'insert',
      message: 'a',
      suppressed: 0,
      total: 1,
    })
    now = 1_000
    expect(throttle.record('insert', 'b')).toBeUndefined()
    now = 59_999
    expect(throttle.record('insert', 'c')).toBeUndefined()
    now = 60_000
    expect(throttle.record('insert', 'd')).toEqual({
      kind: 'insert',
      message: 'd',
      suppressed: 2,
      total: 4,
    })
    now = 60_001
    expect(throttle.record('insert', 'e')).toBeUndefined()
    expect(throttle.total()).toBe(5)
  })

  it('throttles each kind on its own', () => {
    const throttle = createFailureThrottle(60_000, () => 0)
    expect(throttle.record('insert', 'x')).toBeDefined()
    expect(throttle.record('claim', 'y')).toMatchObject({ kind: 'claim', suppressed: 0, total: 1 })
    expect(throttle.record('claim', 'y')).toBeUndefined()
    expect(throttle.total()).toBe(3)
  })
})
