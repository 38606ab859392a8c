import { describe, expect, it } from 'vitest'
import { errorText, httpResult } from './outcome'

describe('httpResult', () => {
  it.each([
    [200, 'delivered'],
    [204, 'delivered'],
    [299, 'delivered'],
    [301, 'retry'],
    [302, 'retry'],
    [400, 'retry'],
    [404, 'retry'],
    [408, 'retry'],
    [410, 'fail'],
    [429, 'retry'],
    [500, 'retry'],
    [503, 'retry'],
  ])('HTTP %i → %s', (status, kind) => {
    expect(httpResult(status, null).kind).toBe(kind)
  })

  it('names why a redirect failed and keeps Retry-After', () => {
    expect(httpResult(307, null)).toMatchObject({ error: 'HTTP 307: redirects are not followed' })
    expect(httpResult(429, '30')).toMatchObject({ error: 'HTTP 429', retryAfter: '30' })
  })
})

describe('errorText', () => {
  it("adds the cause's message and clips to 500 characters", () => {
    const error = new TypeError('fetch failed', {
      cause: new Error('connect ECONNREFUSED 10.0.0.1:80'),
    })
    expect(errorText(error)).toBe('fetch failed: connect ECONNREFUSED 10.0.0.1:80')
    expect(errorText(new Error('x'.repeat(900)))).toHaveLength(500)
    expect(errorText('plain')).toBe('plain')
  })
})
