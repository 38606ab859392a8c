import { describe, expect, it } from 'vitest'
import { parseManagementEnvelope } from './management'
import { acceptedValue as accepted, errorsOf } from './test-results'

const parse = (body: unknown) => parseManagementEnvelope('rate_limit', body)

describe('rate_limit management envelope (PUT /api/v1/projects/:id/rate_limits)', () => {
  it.each([
    [
      'every field',
      { requests: 10, period_seconds: 30, auth_failure_requests: 5 },
      { requests: 10, period_seconds: 30, auth_failure_requests: 5 },
    ],
    [
      'camelCase fields',
      { periodSeconds: 30, authFailureRequests: 5 },
      { period_seconds: 30, auth_failure_requests: 5 },
    ],
  ])('accepts %s', (_rule, rateLimit, expected) => {
    expect(accepted(parse({ rate_limit: rateLimit }))).toEqual(expected)
  })

  it('reads a null field as "server default" (null or absent)', () => {
    const value = accepted(parse({ rate_limit: { requests: null, period_seconds: 30 } }))
    expect(value.requests ?? null).toBeNull()
    expect(value.period_seconds).toBe(30)
  })

  // Which of these a route takes anyway (`{"rate_limit": null}` clears) is @tis/ingest's call.
  it.each([
    ['a null envelope', { rate_limit: null }],
    ['an empty envelope', { rate_limit: {} }],
    ['an uppercase null envelope', { RATE_LIMIT: null }],
    ['no body', undefined],
    ['an empty body', {}],
  ])('answers %s with 400 naming the envelope', (_rule, body) => {
    expect(parse(body)).toMatchObject({
      ok: false,
      status: 400,
      error: expect.stringMatching(/^param is missing or the value is empty: rate_limit/),
    })
  })

  it.each([
    ['requests 0', { requests: 0 }, 'requests must be greater than or equal to 1'],
    ['a fractional period', { period_seconds: 1.5 }, 'period_seconds must be an integer'],
    ['a string', { auth_failure_requests: 'many' }, 'auth_failure_requests'],
    ['an unknown property', { burst: 3 }, 'burst'],
  ])('rejects %s with 422', (_rule, rateLimit, message) => {
    expect(errorsOf(parse({ rate_limit: rateLimit })).join('\n')).toContain(message)
  })
})
