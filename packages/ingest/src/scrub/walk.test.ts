import { describe, expect, it } from 'vitest'
import { createScrubber } from './scrub'
import { DEFAULT_SCRUB_SETTINGS } from './settings'
import { MAX_SCRUB_DEPTH } from './walk'

const scrubber = createScrubber({ ...DEFAULT_SCRUB_SETTINGS, scrubIpAddresses: true })

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child)
    Object.freeze(value)
  }
  return value
}

const richEvent = () => ({
  event_type: 'error',
  message: 'card 4111 1111 1111 1111',
  user_id: '10.0.0.1',
  password: 'p',
  context: {
    data_scrubbing: { filtered: 9 },
    user_id: '::1',
    request: {
      url: 'https://a:b@x.test/?token=t',
      headers: { Cookie: 'c' },
      query_string: 'pwd=1',
    },
    exception: { frames: [{ vars: { secret: 's', n: 4222222222222 } }] },
    breadcrumbs: [{ data: { ip: '10.0.0.1', list: ['Bearer t0k3n-v4lue', 'ok'] } }],
    key: '-----BEGIN PRIVATE KEY-----\nMIIE',
  },
})

describe('the input', () => {
  it('is never mutated', () => {
    const input = deepFreeze(richEvent())
    const { value, report } = scrubber.event(input)
    expect(input).toEqual(richEvent())
    expect(value).not.toEqual(input)
    expect(report).toEqual({
      filtered: 13,
      rules: {
        credit_card: 2,
        ip_address: 3,
        sensitive_key: 5,
        url_password: 1,
        bearer_token: 1,
        private_key: 1,
      },
    })
  })

  it('is returned itself when nothing needs filtering', () => {
    const input = deepFreeze({ message: 'ok', context: { a: [{ b: 'c' }], n: 1 } })
    expect(scrubber.event(input).value).toBe(input)
  })

  it('shares every untouched object and array with the result', () => {
    const input = {
      message: 'ok',
      context: { clean: { a: [1, 2] }, list: [{ x: 1 }, { token: 't' }], deep: { password: 'p' } },
    }
    const { value } = scrubber.event(input)
    expect(value).not.toBe(input)
    expect(value.context).not.toBe(input.context)
    expect(value.context.clean).toBe(input.context.clean)
    expect(value.context.list).not.toBe(input.context.list)
    expect(value.context.list[0]).toBe(input.context.list[0])
  })
})

describe('the walk', () => {
  const nested = (levels: number, leaf: Record<string, unknown>) => {
    let value: Record<string, unknown> = leaf
    for (let i = 0; i < levels; i++) value = { child: value }
    return value
  }

  it(`keeps values nested deeper than ${MAX_SCRUB_DEPTH} levels as they are`, () => {
    const shallow = { context: nested(MAX_SCRUB_DEPTH - 3, { password: 'p' }) }
    const deep = { context: nested(MAX_SCRUB_DEPTH + 5, { password: 'p' }) }
    expect(scrubber.event(shallow).report.filtered).toBe(1)
    expect(scrubber.event(deep).value).toBe(deep)
  })

  it('keeps a `__proto__` key an own property', () => {
    const input = JSON.parse(
      '{"context":{"__proto__":{"password":"p"},"x":{"__proto__":[1,"4111 1111 1111 1111"]}}}',
    )
    const { value } = scrubber.event(input)
    for (const [object, expected] of [
      [value.context, { password: '[Filtered]' }],
      [value.context.x, [1, '[Filtered]']],
    ]) {
      expect(Object.getPrototypeOf(object)).toBe(Object.prototype)
      expect(Object.getOwnPropertyDescriptor(object, '__proto__')?.value).toEqual(expected)
    }
  })

  it('leaves class instances alone', () => {
    const when = new Date(0)
    const input = { context: { when, map: new Map([['password', 'p']]) } }
    expect(scrubber.event(input).value).toBe(input)
  })

  it('does not count the marker already in place', () => {
    const input = {
      message: 'card [Filtered], Bearer [Filtered]',
      context: { password: '[Filtered]', url: 'https://a:[Filtered]@x/?token=[Filtered]' },
    }
    const result = scrubber.event(input)
    expect(result.value).toBe(input)
    expect(result.report).toEqual({ filtered: 0, rules: {} })
  })
})
