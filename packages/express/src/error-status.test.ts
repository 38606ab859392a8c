import { describe, expect, it } from 'vitest'
import { errorStatus } from './error-handler'

describe('errorStatus (as Express answers the error)', () => {
  it.each([
    ['err.status 404', { status: 404 }, undefined, 404],
    ['err.statusCode 503', { statusCode: 503 }, undefined, 503],
    ['err.status wins over err.statusCode', { status: 409, statusCode: 502 }, undefined, 409],
    ['a non-error status is ignored', { status: 200 }, undefined, 500],
    ['a string status is ignored', { status: '404' }, undefined, 500],
    ['the response status if already an error', {}, 422, 422],
    ['a 200 response status is not an error', {}, 200, 500],
    ['a thrown string', 'boom', undefined, 500],
    ['null', null, undefined, 500],
  ])('%s', (_rule, error, responseStatus, expected) => {
    expect(errorStatus(error, responseStatus)).toBe(expected)
  })
})
