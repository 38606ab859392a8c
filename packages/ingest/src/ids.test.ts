import { describe, expect, it } from 'vitest'
import { generateToken, sha256Hex, uuidv7 } from './ids'

describe('uuidv7', () => {
  it('is a version 7, variant 1 UUID carrying the millisecond timestamp', () => {
    const id = uuidv7(0x0189_abcd_ef01)
    expect(id).toMatch(/^0189abcd-ef01-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
  })

  it('sorts by creation time and never repeats across pool refills', () => {
    const ids = Array.from({ length: 5000 }, (_, i) => uuidv7(1_700_000_000_000 + i))
    expect(new Set(ids).size).toBe(ids.length)
    expect([...ids].sort()).toEqual(ids)
  })
})

describe('tokens', () => {
  it('are the prefix and 48 hex characters, different every time', () => {
    const a = generateToken('tis_')
    expect(a).toMatch(/^tis_[0-9a-f]{48}$/)
    expect(generateToken('tis_')).not.toBe(a)
  })

  it('are stored as SHA-256 hex digests', () => {
    expect(sha256Hex('abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    )
  })
})
