import { describe, expect, it } from 'vitest'
import { formatBytes } from './retention-answers'

describe('formatBytes', () => {
  it.each([
    [0, '0 B'],
    [999, '999 B'],
    [1000, '1.0 kB'],
    [1_234_567, '1.2 MB'],
    [5_400_000_000, '5.4 GB'],
    [7e15, '7000.0 TB'],
  ])('%d bytes read %s', (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text)
  })
})
