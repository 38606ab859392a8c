import { describe, expect, it } from 'vitest'
import { isAbsoluteUri, isRfc3339DateTime, normalizeRepository, parseDateTime } from './formats'
import { jsonDepth } from './limits'

describe('isRfc3339DateTime', () => {
  it.each([
    ['2026-01-31T12:00:00Z', true],
    ['2026-01-31T12:00:00.123Z', true],
    ['2026-01-31T12:00:00.123456789+02:00', true],
    ['2026-01-31t12:00:00z', true],
    ['2024-02-29T00:00:00-05:30', true],
    ['2026-12-31T23:59:60Z', true],
    ['2026-01-31T12:00:00', false],
    ['2026-01-31 12:00:00Z', false],
    ['2026-01-31', false],
    ['2026-02-29T00:00:00Z', false],
    ['2026-13-01T00:00:00Z', false],
    ['2026-00-01T00:00:00Z', false],
    ['2026-01-32T00:00:00Z', false],
    ['2026-01-31T24:00:00Z', false],
    ['2026-01-31T12:60:00Z', false],
    ['2026-01-31T12:00:00+24:00', false],
    ['2026-01-31T12:00:00+0200', false],
    ['1738324800', false],
    ['0000-01-01T00:00:00Z', false],
    ['0001-01-01T00:00:00Z', true],
    ['9999-12-31T23:59:59Z', true],
    ['2026-01-01T00:00:00+15:59', true],
    ['2026-01-01T00:00:00-16:00', false],
    ['2000-02-29T00:00:00Z', true],
    ['1900-02-29T00:00:00Z', false],
    ['yesterday', false],
  ])('%s → %s', (value, expected) => {
    expect(isRfc3339DateTime(value)).toBe(expected)
  })
})

describe('parseDateTime', () => {
  it.each([
    ['2026-01-31T12:00:00Z', '2026-01-31T12:00:00.000Z'],
    ['2026-01-31T12:00:00.5+02:00', '2026-01-31T10:00:00.500Z'],
    ['2016-12-31T23:59:60Z', '2017-01-01T00:00:00.000Z'],
    ['2016-12-31T23:59:60.25Z', '2017-01-01T00:00:00.250Z'],
    ['0001-01-01T00:00:00Z', '0001-01-01T00:00:00.000Z'],
  ])('%s is %s', (value, iso) => {
    expect(parseDateTime(value).toISOString()).toBe(iso)
  })
})

describe('isAbsoluteUri', () => {
  it.each([
    ['https://github.com/o/n/pull/1', true],
    ['http://localhost:3000/x?y=1#z', true],
    ['urn:isbn:0451450523', true],
    ['/relative/path', false],
    ['github.com/o/n', false],
    ['https://exa mple.com', false],
    ['', false],
  ])('%s → %s', (value, expected) => {
    expect(isAbsoluteUri(value)).toBe(expected)
  })
})

describe('normalizeRepository', () => {
  it.each([
    ['owner/name', 'owner/name'],
    ['https://github.com/owner/name', 'owner/name'],
    ['https://github.com/owner/name.git', 'owner/name'],
    ['https://github.com/owner/name/', 'owner/name'],
    ['git@github.com:owner/name.git', 'owner/name'],
    ['ssh://git@github.example.com/owner/name.git', 'owner/name'],
    ['github.com/owner/name', 'owner/name'],
    ['  owner/name  ', 'owner/name'],
    ['just-a-name', 'just-a-name'],
  ])('%s → %s', (value, expected) => {
    expect(normalizeRepository(value)).toBe(expected)
  })
})

describe('jsonDepth', () => {
  it('counts nesting of objects and arrays', () => {
    expect(jsonDepth('x')).toBe(0)
    expect(jsonDepth({})).toBe(1)
    expect(jsonDepth({ a: [{ b: 1 }] })).toBe(3)
  })

  it('stops at the limit without recursing, even for very deep values', () => {
    let deep: unknown = 1
    for (let i = 0; i < 200_000; i++) deep = [deep]
    expect(jsonDepth(deep, 64)).toBe(Number.POSITIVE_INFINITY)
  })
})

describe('the instant of a date-time', () => {
  it.each([
    ['0001-01-01T00:00:00Z', true],
    ['0001-01-01T00:00:00-01:00', true],
    ['9999-12-31T23:59:59.999Z', true],
    ['9999-12-31T23:59:59+15:59', true],
    // Valid fields, but the UTC instant is in year 0000 or 10000: PostgreSQL cannot store it.
    ['0001-01-01T00:00:00+15:59', false],
    ['0001-01-01T00:00:00+00:01', false],
    ['9999-12-31T23:59:60Z', false],
    ['9999-12-31T23:59:59-15:59', false],
  ])('%s is %s', (value, valid) => {
    expect(isRfc3339DateTime(value)).toBe(valid)
  })
})
