import { describe, expect, it } from 'vitest'
import { canonicalizeKeys, toSnakeCase } from './keys'

describe('toSnakeCase', () => {
  it.each([
    ['eventType', 'event_type'],
    ['EventType', 'event_type'],
    ['EVENT_TYPE', 'event_type'],
    ['MESSAGE', 'message'],
    ['event_type', 'event_type'],
    ['traceID', 'trace_id'],
    ['pullRequestURL', 'pull_request_url'],
    ['trace-id', 'trace_id'],
    ['durationMs', 'duration_ms'],
    ['parentSpanId', 'parent_span_id'],
  ])('%s → %s', (input, expected) => {
    expect(toSnakeCase(input)).toBe(expected)
  })
})

describe('canonicalizeKeys', () => {
  const spec = { known: new Set(['trace_id', 'repository']), aliases: { repo: 'repository' } }

  it('renames documented fields and keeps unknown keys exactly as sent', () => {
    expect(canonicalizeKeys({ traceId: 'a', repo: 'o/n', myField: 1 }, spec)).toEqual({
      trace_id: 'a',
      repository: 'o/n',
      myField: 1,
    })
  })

  it('prefers the canonical spelling over any other, whatever the order', () => {
    expect(canonicalizeKeys({ traceId: 'camel', trace_id: 'snake' }, spec)).toEqual({
      trace_id: 'snake',
    })
    expect(canonicalizeKeys({ repo: 'a/b', repository: 'c/d' }, spec)).toEqual({
      repository: 'c/d',
    })
  })

  it('treats null on a documented field as not given, so another spelling can fill it', () => {
    expect(canonicalizeKeys({ trace_id: null, traceId: 'x' }, spec)).toEqual({ trace_id: 'x' })
    expect(canonicalizeKeys({ trace_id: null }, spec)).toEqual({})
  })

  it('keeps null on unknown keys', () => {
    expect(canonicalizeKeys({ other: null }, spec)).toEqual({ other: null })
  })

  it('keeps a __proto__ key inert', () => {
    const out = canonicalizeKeys(JSON.parse('{"__proto__":{"polluted":true},"traceId":"t"}'), spec)
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype)
    expect((out as { polluted?: unknown }).polluted).toBeUndefined()
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined()
  })
})
