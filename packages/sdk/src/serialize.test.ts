import { describe, expect, it } from 'vitest'
import { normalize, safeStringify } from './serialize'

describe('normalize: hostile values become plain JSON data', () => {
  const cyclic: Record<string, unknown> = { name: 'a' }
  cyclic['self'] = cyclic
  const shared = { x: 1 }
  const throwing = Object.defineProperty({ ok: 1 }, 'bad', {
    enumerable: true,
    get() {
      throw new Error('getter')
    },
  })
  const badToJson = {
    toJSON: () => {
      throw new Error('toJSON')
    },
  }
  const revoked = Proxy.revocable({}, {})
  revoked.revoke()

  it.each<[string, unknown, unknown]>([
    ['cycles become [Circular]', cyclic, { name: 'a', self: '[Circular]' }],
    [
      'shared (non-cyclic) references are kept',
      { a: shared, b: shared },
      { a: { x: 1 }, b: { x: 1 } },
    ],
    [
      'cyclic arrays',
      (() => {
        const a: unknown[] = [1]
        a.push(a)
        return a
      })(),
      [1, '[Circular]'],
    ],
    ['throwing getters become [Throws]', throwing, { ok: 1, bad: '[Throws]' }],
    ['a throwing toJSON is unserializable', { v: badToJson }, { v: '[Unserializable]' }],
    ['a revoked proxy is unserializable', { v: revoked.proxy }, { v: '[Unserializable]' }],
    [
      'BigInt becomes a decimal string',
      { n: 12345678901234567890n },
      { n: '12345678901234567890' },
    ],
    [
      'NaN and Infinity become strings',
      [Number.NaN, Number.POSITIVE_INFINITY],
      ['NaN', 'Infinity'],
    ],
    ['functions are named', { f: function named() {} }, { f: '[Function named]' }],
    ['symbols are described', { s: Symbol('x') }, { s: 'Symbol(x)' }],
    [
      'undefined properties are left out; in arrays they are null',
      { u: undefined, a: [undefined] },
      { a: [null] },
    ],
    ['dates become ISO strings', { d: new Date(0) }, { d: '1970-01-01T00:00:00.000Z' }],
    ['invalid dates are marked', { d: new Date(Number.NaN) }, { d: 'Invalid Date' }],
    [
      'maps and sets become objects and arrays',
      { m: new Map([[1, 'a']]), s: new Set([1, 2]) },
      { m: { 1: 'a' }, s: [1, 2] },
    ],
    [
      'errors keep name, message and stack',
      { e: Object.assign(new RangeError('r'), { stack: 's' }) },
      { e: { name: 'RangeError', message: 'r', stack: 's' } },
    ],
  ])('%s', (_rule, input, expected) => {
    expect(normalize(input)).toEqual(expected)
  })

  it('caps depth', () => {
    expect(normalize({ a: { b: { c: { d: 1 } } }, l: [[[1]]] }, { maxDepth: 2 })).toEqual({
      a: { b: '[Object]' },
      l: ['[Array]'],
    })
  })

  it('caps breadth of objects and arrays', () => {
    const wide = Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`k${i}`, i]))
    expect(normalize(wide, { maxBreadth: 2 })).toEqual({ k0: 0, k1: 1, '…': '[3 more]' })
    expect(normalize([1, 2, 3, 4], { maxBreadth: 2 })).toEqual([1, 2, '[2 more]'])
  })

  it('caps the objects visited, so a huge graph costs bounded time', () => {
    // 100 × 100 × 100 × 100 objects unless the walk is bounded
    const level = (depth: number): unknown =>
      depth === 0
        ? 1
        : new Proxy(
            {},
            {
              ownKeys: () => Array.from({ length: 100 }, (_, i) => `k${i}`),
              getOwnPropertyDescriptor: () => ({ enumerable: true, configurable: true }),
              get: () => level(depth - 1),
            },
          )
    const started = performance.now()
    const out = JSON.stringify(normalize(level(5), { maxObjects: 500 }))
    expect(performance.now() - started).toBeLessThan(1000)
    expect(out).toContain('[Truncated]')
    expect(out.match(/\{/g)!.length).toBeLessThanOrEqual(500)
  })

  it('caps string length', () => {
    expect(normalize('x'.repeat(10), { maxStringLength: 4 })).toBe('xxxx…')
  })

  it('survives a very deep structure without a stack overflow', () => {
    let deep: Record<string, unknown> = {}
    const root = deep
    for (let i = 0; i < 100_000; i++) deep = deep['n'] = {}
    expect(() => safeStringify(root)).not.toThrow()
  })

  it('safeStringify always returns a string', () => {
    expect(safeStringify(undefined)).toBe('null')
    expect(safeStringify(cyclic)).toBe('{"name":"a","self":"[Circular]"}')
  })
})
