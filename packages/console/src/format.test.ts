import { describe, expect, it } from 'vitest'
import { formatArgs } from './format'

describe('formatArgs', () => {
  const cyclic: Record<string, unknown> = { a: 1 }
  cyclic['self'] = cyclic
  it.each<[string, unknown[], string]>([
    ['%s substitutes strings', ['hello %s!', 'world'], 'hello world!'],
    ['%d truncates numbers', ['%d items', 4.7], '4 items'],
    ['%i truncates numbers', ['%i', '12.9'], '12'],
    ['%d shows BigInt', ['%d', 5n], '5n'],
    ['%f keeps decimals', ['%f', '1.5'], '1.5'],
    ['%o serialises objects safely', ['obj %o', cyclic], 'obj {"a":1,"self":"[Circular]"}'],
    ['%j serialises objects', ['%j', [1, 2]], '[1,2]'],
    ['%c is dropped', ['%cstyled', 'color: red'], 'styled'],
    ['%% is a percent sign', ['100%% sure'], '100% sure'],
    ['missing arguments leave the directive', ['%s and %s', 'a'], 'a and %s'],
    ['extra arguments are appended', ['a', 'b', 3, { c: 1 }], 'a b 3 {"c":1}'],
    ['non-string first argument', [{ x: 1 }, 'y'], '{"x":1} y'],
    ['errors as name: message', ['failed:', new TypeError('bad')], 'failed: TypeError: bad'],
    ['primitives as strings', [1n, undefined, null, true], '1 undefined null true'],
  ])('%s', (_rule, args, expected) => {
    expect(formatArgs(args)).toBe(expected)
  })
})
