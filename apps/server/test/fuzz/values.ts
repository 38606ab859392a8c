import fc from 'fast-check'

/**
 * Placeholder for the unique marker of one request: the sender replaces it with a string no
 * other request carries, so the database can be searched for the bodies that were refused.
 */
export const MARK = '@@FZM@@'

/** Strings aimed at normalisers: empty, blank, NUL, lone surrogates, BOM, prototype keys. */
const NASTY_STRINGS = [
  '',
  ' ',
  '\t\n',
  '\u0000',
  'a\u0000b',
  '\uD800',
  '\uDFFF',
  'x\uD83D',
  '\uFEFF',
  '\u202E',
  'null',
  'undefined',
  'NaN',
  '__proto__',
  'constructor',
  'prototype',
  "'; drop table events; --",
  '%s%n',
  '$' + '{x}',
  '../../etc/passwd',
  '\\u0000',
  'owner/name',
  'https://github.com/o/n.git',
  'git@github.com:o/n.git',
  'a1b2c3d',
  'ABCDEF1234567',
  '0190b1c2-3d4e-7f80-9a1b-2c3d4e5f6071',
  '0190B1C2-3D4E-7F80-9A1B-2C3D4E5F6071',
  '00000000-0000-0000-0000-000000000000',
]

/** Valid date-times whose UTC instant lies outside years 0001–9999 (were bugs B1, B2, B5). */
const OUT_OF_RANGE = [
  '9999-12-31T23:59:60Z',
  '0001-01-01T00:00:00+15:59',
  '9999-12-31T23:59:59-15:59',
]

/** Date-time strings: valid, at the edges of the range, and just outside it. */
export const DATES: readonly string[] = [
  ...OUT_OF_RANGE,
  '2026-01-31T12:00:00Z',
  '2026-01-31t12:00:00z',
  '2026-01-31T12:00:00.123456789+14:00',
  '0001-01-01T00:00:00Z',
  '0001-01-01T00:00:00-15:59',
  '9999-12-31T23:59:59.999999999Z',
  '9999-12-31T23:59:59+15:59',
  '9999-12-31T23:59:59.999999Z',
  '2026-12-31T23:59:60Z',
  '0000-01-01T00:00:00Z',
  '10000-01-01T00:00:00Z',
  '2026-02-30T00:00:00Z',
  '2026-01-31T24:00:00Z',
  '2026-01-31T12:00:00+16:00',
  '2026-01-31T12:00:00',
  '2026-01-31',
  '2026-01-31 12:00:00Z',
  '-2026-01-31T12:00:00Z',
  '+002026-01-31T12:00:00Z',
  '1e10',
  'now',
]

/** Numbers at type and column boundaries. */
export const NUMBERS = [
  -1,
  0,
  -0,
  1,
  0.5,
  59,
  60,
  100,
  101,
  3600,
  3601,
  2 ** 31 - 1,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 53,
  2 ** 63,
  -(2 ** 63),
  1e21,
  1e308,
  -1e308,
  5e-324,
  Number.MAX_SAFE_INTEGER,
] as const

/** A string of `n` copies of `c` (caps: 1,024 / 8,192 / 65,536, body cap 65,536 bytes). */
const long = fc
  .tuple(
    fc.constantFrom(199, 200, 201, 1023, 1024, 1025, 8192, 8193, 20_000, 65_536, 70_000),
    fc.constantFrom('x', 'é', '😀', '\u0000', ' '),
  )
  .map(([n, c]) => c.repeat(n))

/** Any string a hostile client could send (lone surrogates and NUL included). */
export const anyString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.string() },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 3, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 2, arbitrary: fc.constantFrom(...DATES) },
  { weight: 1, arbitrary: long },
  { weight: 2, arbitrary: fc.constant(MARK) },
)

/** Any JSON value, deep nesting included (the normaliser's limit is 64 levels). */
export const anyJson: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
  { weight: 2, arbitrary: anyString },
  { weight: 2, arbitrary: fc.constantFrom<unknown>(...NUMBERS, null, true, false, [], {}) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.integer({ min: 60, max: 70 }), fc.jsonValue({ maxDepth: 1 }))
      .map(([depth, leaf]) => nest(depth, leaf)),
  },
)

/** `leaf` wrapped in `depth` objects and arrays. */
export function nest(depth: number, leaf: unknown): unknown {
  let value = leaf
  for (let i = 0; i < depth; i += 1) value = i % 2 === 0 ? { d: value } : [value]
  return value
}

/** A value for a documented field: mostly of the right kind, often not. */
export function fieldValue(valid: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 5, arbitrary: valid }, { weight: 2, arbitrary: anyJson })
}

/** A UUID, sometimes upper-case or of another version. */
export const uuid = fc.oneof(
  fc.uuid(),
  fc.uuid().map((u) => u.toUpperCase()),
  fc.uuid({ version: 7 }),
)
