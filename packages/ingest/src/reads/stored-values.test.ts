import { describe, expect, it } from 'vitest'
import { finiteOrNull, isoOrNull, linkOrNull } from './stored-values'
import { traceExtent } from './traces'

// Values an old database may hand the read API and what a JSON answer shows of them.
describe('stored values in JSON answers', () => {
  it.each([
    [1.7976931348623157e308, 1.7976931348623157e308],
    [-0, -0],
    [Number.NaN, null],
    [Number.POSITIVE_INFINITY, null],
    [Number.NEGATIVE_INFINITY, null],
    [null, null],
    [undefined, null],
  ])('finiteOrNull(%s) is %s', (value, shown) => {
    expect(finiteOrNull(value)).toBe(shown)
  })

  it.each([
    [new Date('2026-01-01T00:00:00Z'), '2026-01-01T00:00:00.000Z'],
    [new Date(Date.UTC(-4712, 0, 1)), '-004712-01-01T00:00:00.000Z'],
    [new Date(Number.NaN), null],
    [null, null],
    // PGlite returns ±Infinity (a number) for ±infinity timestamps.
    [Number.POSITIVE_INFINITY as unknown as Date, null],
  ])('isoOrNull(%s) is %s', (value, shown) => {
    expect(isoOrNull(value)).toBe(shown)
  })

  it.each([
    ['https://github.com/o/n/pull/1', 'https://github.com/o/n/pull/1'],
    ['HTTP://x.test', 'HTTP://x.test'],
    ['javascript:alert(1)', null],
    ['data:text/html,<script>alert(1)</script>', null],
    [' https://x.test', null],
    ['vbscript:msgbox', null],
    [null, null],
  ])('linkOrNull(%j) is %j', (value, shown) => {
    expect(linkOrNull(value)).toBe(shown)
  })

  it('a trace extent skips instants JavaScript cannot represent', () => {
    const span = (startedAt: Date, endedAt: Date | null, durationMs: number | null) => ({
      id: 'x',
      traceId: 't',
      spanId: null,
      parentSpanId: null,
      name: 's',
      kind: null,
      startedAt,
      endedAt,
      durationMs,
      environment: null,
      release: null,
      status: null,
      level: null,
      payload: {},
    })
    const start = new Date('2026-01-01T00:00:00Z')
    expect(
      traceExtent([
        span(start, null, 1.7976931348623157e308),
        span(new Date(Number.NaN), new Date(Number.NaN), null),
        span(new Date(start.getTime() + 1000), null, 500),
      ]),
    ).toEqual({ startedAt: '2026-01-01T00:00:00.000Z', endedAt: '2026-01-01T00:00:01.500Z' })
    expect(traceExtent([span(new Date(Number.NaN), null, Number.NaN)])).toEqual({
      startedAt: null,
      endedAt: null,
    })
  })
})
