import { describe, expect, it } from 'vitest'
import { isIgnored } from './route'

describe('isIgnored', () => {
  it.each([
    ['a string equal to the route pattern', ['/orders/:id'], '/orders/:id', '/orders/1', true],
    ['a string equal to the path', ['/orders/1'], '/orders/:id', '/orders/1', true],
    ['a string matching neither', ['/orders'], '/orders/:id', '/orders/1', false],
    ['a RegExp on the route', [/:id$/], '/orders/:id', '/orders/1', true],
    ['a RegExp on the path of an unmatched request', [/^\/health/], undefined, '/healthz', true],
    ['a global RegExp, every time', [/health/g], '/health', '/health', true],
    ['no rules', undefined, '/x', '/x', false],
  ] as const)('%s', (_rule, rules, route, path, expected) => {
    expect(isIgnored(rules, route, path)).toBe(expected)
    expect(isIgnored(rules, route, path)).toBe(expected)
  })
})
