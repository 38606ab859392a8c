import { describe, expect, it } from 'vitest'
import {
  DEFAULT_ALLOWED_HEADERS,
  DEFAULT_REDACTED_QUERY_PARAMS,
  pickHeaders,
  redactQuery,
} from './redact'

describe('redactQuery', () => {
  it.each([
    ['plain parameters stay', 'q=shoes&page=2', 'q=shoes&page=2'],
    [
      'secret names are filtered',
      'token=abc&password=p&api_key=k',
      'token=[Filtered]&password=[Filtered]&api_key=[Filtered]',
    ],
    [
      'names match case-insensitively, decoded',
      'Access%5FToken=x&SIG=y',
      'Access%5FToken=[Filtered]&SIG=[Filtered]',
    ],
    ['a bare flag is kept', 'debug&token', 'debug&token'],
    ['an undecodable name is tested raw', '%E0%A4%A=1&secret%=2', '%E0%A4%A=1&secret%=[Filtered]'],
    ['an OAuth code is filtered', 'code=abc&state=s', 'code=[Filtered]&state=s'],
  ])('%s', (_rule, query, expected) => {
    expect(redactQuery(query, DEFAULT_REDACTED_QUERY_PARAMS)).toBe(expected)
  })

  it('a global RegExp gives the same answer every time', () => {
    const secret = /token/gi
    expect(redactQuery('token=1&token=2', secret)).toBe('token=[Filtered]&token=[Filtered]')
  })
})

describe('pickHeaders', () => {
  it('keeps only allowed headers, lowercase, joining repeated values', () => {
    const headers = {
      authorization: 'Bearer x',
      cookie: 'sid=1',
      'user-agent': 'ua',
      accept: 'text/html',
      'x-forwarded-for': '10.0.0.1',
    }
    expect(pickHeaders(headers, DEFAULT_ALLOWED_HEADERS)).toEqual({
      'user-agent': 'ua',
      accept: 'text/html',
    })
    expect(pickHeaders({ 'x-tenant': ['a', 'b'] }, ['X-Tenant'])).toEqual({ 'x-tenant': 'a, b' })
  })

  it('has no credential or address header in its defaults', () => {
    for (const name of ['authorization', 'cookie', 'x-api-key', 'x-forwarded-for', 'referer']) {
      expect(DEFAULT_ALLOWED_HEADERS).not.toContain(name)
    }
  })
})
