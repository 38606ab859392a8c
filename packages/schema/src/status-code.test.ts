import { describe, expect, it } from 'vitest'
import { statusCodeOf } from './status-code'

// One reading of an event's HTTP status code, shared by PostgreSQL (error_count of
// /transactions) and ClickHouse (spans_raw.status_code).
describe('statusCodeOf', () => {
  it.each([
    ['status_code', { status_code: 201 }, 201],
    ['http_status', { http_status: 404 }, 404],
    ['http.status_code (logister-js Express)', { http: { status_code: 500 } }, 500],
    ['status', { status: 503 }, 503],
    ['response.status_code', { response: { status_code: 502 } }, 502],
    ['response.status (logister-ruby middleware)', { response: { status: 500 } }, 500],
    ['a three-digit string', { status: '404' }, 404],
    ['status_code first', { status_code: 200, http: { status_code: 500 } }, 200],
    ['http.status_code before status', { http: { status_code: 500 }, status: 200 }, 500],
    ['a word is skipped', { status: 'ok', response: { status: 500 } }, 500],
    ['below 100 is no HTTP status', { status_code: 99 }, null],
    ['above 599 is no HTTP status', { status_code: 600 }, null],
    ['a fraction', { status: 1.5 }, null],
    ['a four-digit string', { status: '5000' }, null],
    ['http that is not an object', { http: 500 }, null],
    ['nothing', {}, null],
  ])('%s', (_rule, context, expected) => {
    expect(statusCodeOf(context)).toBe(expected)
  })
})
