import { expect, it } from 'vitest'
import { parseRetryAfter } from './timers'

it.each<[string | null, number]>([
  ['5', 5],
  ['0', 1],
  ['2.5', 3],
  [' 7 ', 7],
  ['', 60],
  ['soon', 60],
  ['Wed, 21 Oct 2026 07:28:00 GMT', 60],
  [null, 60],
])('Retry-After %j waits %i s', (header, seconds) => {
  expect(parseRetryAfter(header, 60)).toBe(seconds)
})
