import { describe, expect, it } from 'vitest'
import { parseTraceparent } from './traceparent'

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736'
const SPAN = '00f067aa0ba902b7'

describe('parseTraceparent (W3C Trace Context)', () => {
  it.each([
    ['a sampled version-00 header', `00-${TRACE}-${SPAN}-01`, true],
    ['an unsampled header', `00-${TRACE}-${SPAN}-00`, false],
    ['surrounding whitespace', `  00-${TRACE}-${SPAN}-01 `, true],
    ['a future version with extra fields', `cc-${TRACE}-${SPAN}-01-what-the-future-holds`, true],
  ])('accepts %s', (_rule, header, sampled) => {
    expect(parseTraceparent(header)).toEqual({ traceId: TRACE, parentSpanId: SPAN, sampled })
  })

  it.each([
    ['no header', undefined],
    ['several headers', [`00-${TRACE}-${SPAN}-01`, `00-${TRACE}-${SPAN}-01`]],
    ['version ff', `ff-${TRACE}-${SPAN}-01`],
    ['version 00 with extra fields', `00-${TRACE}-${SPAN}-01-x`],
    ['uppercase hex', `00-${TRACE.toUpperCase()}-${SPAN}-01`],
    ['an all-zero trace id', `00-${'0'.repeat(32)}-${SPAN}-01`],
    ['an all-zero parent id', `00-${TRACE}-${'0'.repeat(16)}-01`],
    ['a short trace id', `00-${TRACE.slice(1)}-${SPAN}-01`],
    ['garbage', 'not a traceparent'],
  ])('rejects %s', (_rule, header) => {
    expect(parseTraceparent(header)).toBeUndefined()
  })
})
