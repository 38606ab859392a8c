import { describe, expect, it } from 'vitest'
import { describeException } from './exception'
import { parseStack } from './stack'

describe('parseStack', () => {
  it.each<[string, string, unknown[]]>([
    [
      'V8 (Node, Chrome)',
      [
        'TypeError: bad',
        '    at handler (/app/src/routes.js:10:15)',
        '    at async Server.run (file:///app/server.mjs:3:7)',
        '    at /app/index.js:1:1',
        '    at new Thing (http://x.test/app.js:2:30)',
      ].join('\n'),
      [
        { function: 'handler', filename: '/app/src/routes.js', lineno: 10, colno: 15 },
        { function: 'Server.run', filename: 'file:///app/server.mjs', lineno: 3, colno: 7 },
        { filename: '/app/index.js', lineno: 1, colno: 1 },
        { function: 'new Thing', filename: 'http://x.test/app.js', lineno: 2, colno: 30 },
      ],
    ],
    [
      'Firefox',
      ['handler@http://x.test/app.js:10:15', '@http://x.test/app.js:1:1', ''].join('\n'),
      [
        { function: 'handler', filename: 'http://x.test/app.js', lineno: 10, colno: 15 },
        { filename: 'http://x.test/app.js', lineno: 1, colno: 1 },
      ],
    ],
    [
      'Safari',
      ['handler@https://x.test/app.js:10:15', 'global code@https://x.test/app.js:20:3'].join('\n'),
      [
        { function: 'handler', filename: 'https://x.test/app.js', lineno: 10, colno: 15 },
        { function: 'global code', filename: 'https://x.test/app.js', lineno: 20, colno: 3 },
      ],
    ],
  ])('%s', (_name, stack, frames) => {
    expect(parseStack(stack)).toEqual(frames)
  })

  it('ignores lines it cannot read and non-strings', () => {
    expect(parseStack('Error: x\n    at <anonymous>\nnonsense')).toEqual([])
    expect(parseStack(undefined)).toEqual([])
  })
})

describe('describeException', () => {
  it('follows the cause chain, bounded even when it is cyclic', () => {
    const a = new Error('a')
    const b = new Error('b', { cause: a })
    ;(a as { cause?: unknown }).cause = b
    const described = describeException(b)
    let depth = 0
    for (let c = described; c['cause']; c = c['cause'] as Record<string, unknown>) depth++
    expect(depth).toBe(5)
    expect(described['cause']).toMatchObject({ class: 'Error', message: 'a' })
  })

  it('lists AggregateError members', () => {
    const error = new AggregateError([new TypeError('one'), 'two'], 'many')
    expect(describeException(error)).toMatchObject({
      class: 'AggregateError',
      message: 'many',
      errors: [
        { class: 'TypeError', message: 'one' },
        { class: 'NonError', message: 'two' },
      ],
    })
  })

  it('uses the constructor name of custom errors and survives throwing getters', () => {
    class PaymentError extends Error {}
    expect(describeException(new PaymentError('declined'))).toMatchObject({
      class: 'PaymentError',
      message: 'declined',
    })
    const hostile = Object.defineProperty(new Error('m'), 'stack', {
      get() {
        throw new Error('no')
      },
    })
    expect(describeException(hostile)).toMatchObject({ class: 'Error', frames: [] })
  })
})
