import { describe, expect, it } from 'vitest'
import { presentedToken } from './credentials'

describe('presentedToken (section 5.1)', () => {
  it.each([
    ['Authorization: Bearer', { authorization: 'Bearer tis_abc' }, 'tis_abc'],
    ['bearer in any case', { Authorization: 'bearer tis_abc' }, 'tis_abc'],
    ['X-Api-Key', { 'x-api-key': 'tis_abc' }, 'tis_abc'],
    ['X-Api-Key in any case', { 'X-API-KEY': ' tis_abc ' }, 'tis_abc'],
    [
      'Authorization wins over X-Api-Key',
      { authorization: 'Bearer one', 'x-api-key': 'two' },
      'one',
    ],
    ['a Fetch Headers object', new Headers({ 'X-Api-Key': 'tis_h' }), 'tis_h'],
    ['no credential', {}, undefined],
    ['another auth scheme', { authorization: 'Basic dXNlcjpwYXNz' }, undefined],
    ['Bearer without a token', { authorization: 'Bearer ' }, undefined],
    ['an empty X-Api-Key', { 'x-api-key': '  ' }, undefined],
  ])('%s', (_rule, headers, token) => {
    expect(presentedToken(headers)).toBe(token)
  })
})
