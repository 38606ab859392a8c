import { describe, expect, it } from 'vitest'
import { decodeCursor, encodeCursor } from './cursor'
import { parseCheckInQuery, parseEventQuery, parseIssueQuery, parseMonitorQuery } from './query'
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './query-fields'

const PROJECT = '01a203af-ac77-79d4-9708-1fd9c9d94c22'
const ID = '01a203af-af49-72ed-9f69-45751cb49f1e'

describe('cursors', () => {
  it('round-trips a keyset position as opaque base64url', () => {
    const cursor = { at: new Date('2026-06-01T12:00:00.123Z'), id: ID }
    const token = encodeCursor(cursor)
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/)
    expect(decodeCursor(token)).toEqual(cursor)
  })

  it.each(['', 'not a cursor', 'abc', btoa('123.not-a-uuid'), btoa(`x.${ID}`)])(
    'rejects %j',
    (token) => {
      expect(decodeCursor(token)).toBeNull()
    },
  )
})

describe('parseIssueQuery', () => {
  it('defaults to unresolved issues and the default page size', () => {
    expect(parseIssueQuery(PROJECT, {})).toEqual({
      ok: true,
      value: { projectId: PROJECT, status: 'unresolved', limit: DEFAULT_PAGE_SIZE },
    })
  })

  it('maps status=all to no status filter and caps the limit', () => {
    const parsed = parseIssueQuery(PROJECT, { status: 'all', limit: '5000' })
    expect(parsed).toMatchObject({ ok: true, value: { status: null, limit: MAX_PAGE_SIZE } })
  })

  it.each([
    [{ status: 'open' }, 'status'],
    [{ limit: '0' }, 'limit'],
    [{ limit: '-1' }, 'limit'],
    [{ cursor: 'zzz' }, 'cursor'],
    [{ q: '' }, 'q'],
    [{ environment: 'e'.repeat(1025) }, 'environment'],
  ])('names the parameter of %j', (query, name) => {
    const parsed = parseIssueQuery(PROJECT, query)
    expect(parsed.ok).toBe(false)
    if (!parsed.ok) expect(parsed.errors[0]!.startsWith(`${name} `)).toBe(true)
  })
})

describe('parseEventQuery', () => {
  it('takes every filter', () => {
    const parsed = parseEventQuery(PROJECT, {
      event_type: 'error',
      issue_id: ID.toUpperCase(),
      since: '2026-06-01T00:00:00Z',
      user_id: 'u',
      cursor: encodeCursor({ at: new Date(0), id: ID }),
    })
    expect(parsed).toEqual({
      ok: true,
      value: {
        projectId: PROJECT,
        eventType: 'error',
        issueId: ID,
        since: new Date('2026-06-01T00:00:00Z'),
        userId: 'u',
        after: { at: new Date(0), id: ID },
        limit: DEFAULT_PAGE_SIZE,
      },
    })
  })

  it.each([
    [{ event_type: 'nope' }, 'event_type'],
    [{ since: 'yesterday' }, 'since'],
    [{ until: '2026-13-01T00:00:00Z' }, 'until'],
    [{ issue_id: '42' }, 'issue_id'],
  ])('names the parameter of %j', (query, name) => {
    const parsed = parseEventQuery(PROJECT, query)
    expect(parsed.ok).toBe(false)
    if (!parsed.ok) expect(parsed.errors[0]!.startsWith(`${name} `)).toBe(true)
  })
})

describe('parseCheckInQuery', () => {
  const MONITOR = '01a203af-0000-7000-8000-00000000000a'

  it('reads the status, the window and the page of one monitor', () => {
    const parsed = parseCheckInQuery(PROJECT, MONITOR, {
      status: 'in_progress',
      since: '2026-06-01T00:00:00Z',
      until: '2026-06-02T00:00:00+02:00',
      limit: '500',
      cursor: encodeCursor({ at: new Date(5), id: ID }),
    })
    expect(parsed).toEqual({
      ok: true,
      value: {
        projectId: PROJECT,
        monitorId: MONITOR,
        status: 'in_progress',
        since: new Date('2026-06-01T00:00:00Z'),
        until: new Date('2026-06-01T22:00:00Z'),
        after: { at: new Date(5), id: ID },
        limit: MAX_PAGE_SIZE,
      },
    })
    expect(parseCheckInQuery(PROJECT, MONITOR, {})).toEqual({
      ok: true,
      value: { projectId: PROJECT, monitorId: MONITOR, limit: DEFAULT_PAGE_SIZE },
    })
  })

  it.each([
    [{ status: '' }, 'status must not be empty'],
    [{ status: 'a\u0000b' }, 'status must not contain a NUL character'],
    [{ since: 'yesterday' }, 'since must be an RFC 3339 date-time'],
    [{ limit: '0' }, 'limit must be a positive integer'],
    [{ cursor: 'zzz' }, 'cursor is not a cursor of this list'],
    [
      { since: '2026-06-02T00:00:00Z', until: '2026-06-01T00:00:00Z' },
      'since must be before until',
    ],
  ])('answers %j with %j', (query, message) => {
    expect(parseCheckInQuery(PROJECT, MONITOR, query)).toEqual({ ok: false, errors: [message] })
  })
})

describe('parseMonitorQuery', () => {
  it('filters by slug exactly, as sent', () => {
    expect(parseMonitorQuery(PROJECT, { slug: 'Nightly Backup' })).toMatchObject({
      ok: true,
      value: { slug: 'Nightly Backup' },
    })
    expect(parseMonitorQuery(PROJECT, { slug: '' })).toEqual({
      ok: false,
      errors: ['slug must not be empty'],
    })
  })
})
