import { describe, expect, it } from 'vitest'
import { replaceMatches } from './replace'

describe('replaceMatches', () => {
  const upperVowels = (text: string) =>
    replaceMatches(text, /[aeiou]+/g, ([m = '']) => (m === 'a' ? undefined : m.toUpperCase()))

  it('replaces what the callback returns and keeps the rest', () => {
    expect(upperVowels('a quiet tree')).toBe('a qUIEt trEE')
  })

  it('returns the input itself when nothing was replaced', () => {
    expect(upperVowels('a rhythm')).toBe('a rhythm')
  })

  it('survives empty matches', () => {
    expect(replaceMatches('ab', /x*/g, () => '-')).toBe('-a-b-')
  })

  it('starts over at the beginning whatever lastIndex holds', () => {
    const pattern = /o/g
    pattern.lastIndex = 5
    expect(replaceMatches('foo', pattern, () => '0')).toBe('f00')
  })
})
