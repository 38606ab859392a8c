import { describe, expect, it } from 'vitest'
import { chunk, qualified, quoteIdentifier, quoteString } from './sql'

describe('inline SQL', () => {
  it.each([
    ['plain', "'plain'"],
    ["it's", "'it\\'s'"],
    ['back\\slash', "'back\\\\slash'"],
    ["\\'; DROP TABLE x; --", "'\\\\\\'; DROP TABLE x; --'"],
    ['a\nb\0', "'a\\nb\\0'"],
  ])('quotes %j as %s', (value, literal) => {
    expect(quoteString(value)).toBe(literal)
  })

  it('quotes valid identifiers and refuses anything else', () => {
    expect(qualified('tis', 'events_raw')).toBe('`tis`.`events_raw`')
    expect(() => quoteIdentifier('a`b')).toThrow(TypeError)
  })

  it('chunks lists', () => {
    expect(chunk([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]])
  })
})
