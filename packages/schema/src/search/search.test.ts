import { describe, expect, it } from 'vitest'
import { EVENT_SEARCH_KEYS, ISSUE_SEARCH_KEYS, parseSearch, type SearchFilter } from './search'
import { MAX_SEARCH_LENGTH, MAX_SEARCH_LIST, MAX_SEARCH_TOKENS } from './tokens'

const NOW = new Date('2026-12-03T12:00:00.000Z')
const issues = (text: string) => parseSearch(text, ISSUE_SEARCH_KEYS, NOW)
const filters = (text: string): readonly SearchFilter[] => {
  const result = issues(text)
  if (!result.ok) throw new Error(`expected ${text} to parse: ${result.error}`)
  return result.filters
}
const error = (text: string, keys = ISSUE_SEARCH_KEYS) => {
  const result = parseSearch(text, keys, NOW)
  if (result.ok) throw new Error(`expected ${text} to fail`)
  return result.error
}
const at = (iso: string) => new Date(iso)

describe('parseSearch', () => {
  it('reads the example of Sentry muscle memory, term by term', () => {
    expect(filters('is:unresolved level:error release:1.4.2 user.id:42')).toEqual([
      { kind: 'status', negated: false, values: ['unresolved'] },
      { kind: 'value', field: 'level', negated: false, values: ['error'] },
      { kind: 'value', field: 'release', negated: false, values: ['1.4.2'] },
      { kind: 'value', field: 'user.id', negated: false, values: ['42'] },
    ])
  })

  it('is: takes every status and the assignment states', () => {
    expect(filters('is:resolved !is:ignored is:assigned !is:unassigned')).toEqual([
      { kind: 'status', negated: false, values: ['resolved'] },
      { kind: 'status', negated: true, values: ['ignored'] },
      { kind: 'assigned', negated: false, values: [{ kind: 'any' }] },
      { kind: 'assigned', negated: true, values: [{ kind: 'none' }] },
    ])
    expect(filters('is:[unresolved,ignored]')).toEqual([
      { kind: 'status', negated: false, values: ['unresolved', 'ignored'] },
    ])
  })

  it('assigned: takes me, none and an email (lower-cased); assigned_to is its alias', () => {
    expect(filters('assigned:me !assigned:none assigned_to:Ana@Example.com')).toEqual([
      { kind: 'assigned', negated: false, values: [{ kind: 'me' }] },
      { kind: 'assigned', negated: true, values: [{ kind: 'none' }] },
      { kind: 'assigned', negated: false, values: [{ kind: 'email', email: 'ana@example.com' }] },
    ])
  })

  it('environment: and quoted values with spaces, quotes and backslashes', () => {
    expect(filters('environment:"staging eu" release:"v \\"2\\"" env:prod')).toEqual([
      { kind: 'value', field: 'environment', negated: false, values: ['staging eu'] },
      { kind: 'value', field: 'release', negated: false, values: ['v "2"'] },
      { kind: 'value', field: 'environment', negated: false, values: ['prod'] },
    ])
  })

  it('a bracketed list matches any of its items, quoted or not', () => {
    expect(filters('level:[error, fatal] release:["1.0 beta",2.0]')).toEqual([
      { kind: 'value', field: 'level', negated: false, values: ['error', 'fatal'] },
      { kind: 'value', field: 'release', negated: false, values: ['1.0 beta', '2.0'] },
    ])
  })

  it('times_seen: and users: compare counts; timesSeen is an alias', () => {
    expect(filters('times_seen:>10 users:<=3 timesSeen:5 users:>=1 times_seen:<100')).toEqual([
      { kind: 'count', field: 'times_seen', negated: false, bounds: [{ op: '>', value: 10 }] },
      { kind: 'count', field: 'users', negated: false, bounds: [{ op: '<=', value: 3 }] },
      { kind: 'count', field: 'times_seen', negated: false, bounds: [{ op: '=', value: 5 }] },
      { kind: 'count', field: 'users', negated: false, bounds: [{ op: '>=', value: 1 }] },
      { kind: 'count', field: 'times_seen', negated: false, bounds: [{ op: '<', value: 100 }] },
    ])
  })

  it('first_seen: and last_seen: take ages, dates, date-times and comparisons', () => {
    expect(
      filters(
        'first_seen:-24h last_seen:+7d firstSeen:>2026-11-01 lastSeen:<=2026-11-30T10:00:00Z',
      ),
    ).toEqual([
      {
        kind: 'time',
        field: 'first_seen',
        negated: false,
        bounds: [{ op: '>=', value: at('2026-12-02T12:00:00Z') }],
      },
      {
        kind: 'time',
        field: 'last_seen',
        negated: false,
        bounds: [{ op: '<', value: at('2026-11-26T12:00:00Z') }],
      },
      {
        kind: 'time',
        field: 'first_seen',
        negated: false,
        bounds: [{ op: '>', value: at('2026-11-01T00:00:00Z') }],
      },
      {
        kind: 'time',
        field: 'last_seen',
        negated: false,
        bounds: [{ op: '<=', value: at('2026-11-30T10:00:00Z') }],
      },
    ])
    expect(filters('!first_seen:2026-11-01')).toEqual([
      {
        kind: 'time',
        field: 'first_seen',
        negated: true,
        bounds: [
          { op: '>=', value: at('2026-11-01T00:00:00Z') },
          { op: '<', value: at('2026-11-02T00:00:00Z') },
        ],
      },
    ])
    for (const [age, ms] of [
      ['-30s', 30e3],
      ['-15m', 9e5],
      ['-2w', 12096e5],
    ] as const) {
      expect(filters(`last_seen:${age}`)).toEqual([
        {
          kind: 'time',
          field: 'last_seen',
          negated: false,
          bounds: [{ op: '>=', value: new Date(NOW.getTime() - ms) }],
        },
      ])
    }
  })

  it('free text: words and quoted phrases, negated with !; a quoted colon is text', () => {
    expect(filters('timeout "TypeError: x is undefined" !flaky !"read ECONNRESET"')).toEqual([
      { kind: 'text', negated: false, value: 'timeout' },
      { kind: 'text', negated: false, value: 'TypeError: x is undefined' },
      { kind: 'text', negated: true, value: 'flaky' },
      { kind: 'text', negated: true, value: 'read ECONNRESET' },
    ])
    expect(filters('   ')).toEqual([])
    expect(filters('""')).toEqual([])
  })

  it('the events list knows its own keys: timestamp:, not is:', () => {
    const result = parseSearch('timestamp:-1h level:error', EVENT_SEARCH_KEYS, NOW)
    expect(result).toEqual({
      ok: true,
      filters: [
        {
          kind: 'time',
          field: 'timestamp',
          negated: false,
          bounds: [{ op: '>=', value: at('2026-12-03T11:00:00Z') }],
        },
        { kind: 'value', field: 'level', negated: false, values: ['error'] },
      ],
    })
    expect(error('is:resolved', EVENT_SEARCH_KEYS)).toBe(
      'has an unknown key "is" in is:resolved (the keys are level, release, environment, user.id, timestamp; quote free text that contains a colon)',
    )
  })

  it.each([
    ['foo:bar', 'has an unknown key "foo" in foo:bar'],
    ['TypeError: boom', 'has an unknown key "TypeError" in TypeError:'],
    ['!browser.name:chrome', 'has an unknown key "browser.name" in !browser.name:chrome'],
    ['timestamp:-1h', 'has an unknown key "timestamp"'],
    ['level:', 'has no value after level:'],
    [
      'is:open',
      'has an unknown value "open" in is:open (is: takes unresolved, resolved, ignored, assigned, unassigned)',
    ],
    ['is:[resolved,assigned]', 'mixes a status and an assignment in is:[resolved,assigned]'],
    ['assigned:ana', 'has an assignee that is not me, none or an email in assigned:ana'],
    ['times_seen:many', 'needs a whole number in times_seen:many'],
    ['times_seen:>-1', 'needs a whole number in times_seen:>-1'],
    ['users:[1,2]', 'cannot list values in users:[1,2]'],
    ['first_seen:yesterday', 'has a time that is not one in first_seen:yesterday'],
    ['first_seen:2026-02-30', 'has a time that is not one in first_seen:2026-02-30'],
    ['last_seen:-24y', 'has a time that is not one in last_seen:-24y'],
    [
      'last_seen:2026-11-01T00:00:00Z',
      'needs > or < before a date-time in last_seen:2026-11-01T00:00:00Z',
    ],
    ['first_seen:>0000-12-31', 'has a time outside the years 1 to 9999 in first_seen:>0000-12-31'],
    ['last_seen:-999999w', 'has a time outside the years 1 to 9999 in last_seen:-999999w'],
    ['release:"1.0', 'has an unclosed quote: release:"1.0'],
    ['"TypeError', 'has an unclosed quote: "TypeError'],
    ['level:[error', 'has an unclosed list: level:[error'],
    ['level:[error,,fatal]', 'has an empty item in level:[error,,fatal]'],
    ['level:[]', 'has an empty item in level:[]'],
    ['a\u0000b', 'must not contain a NUL character'],
  ])('%s is a 400 naming the problem', (text, message) => {
    expect(error(text)).toContain(message)
  })

  it('enforces its length, term and list limits', () => {
    expect(error('x'.repeat(MAX_SEARCH_LENGTH + 1))).toBe(
      `is longer than ${MAX_SEARCH_LENGTH} characters`,
    )
    expect(issues('x'.repeat(MAX_SEARCH_LENGTH)).ok).toBe(true)
    expect(
      error(
        Array(MAX_SEARCH_TOKENS + 1)
          .fill('w')
          .join(' '),
      ),
    ).toBe(`has more than ${MAX_SEARCH_TOKENS} terms`)
    expect(filters(Array(MAX_SEARCH_TOKENS).fill('w').join(' '))).toHaveLength(MAX_SEARCH_TOKENS)
    const list = (n: number) => `release:[${Array.from({ length: n }, (_, i) => i).join(',')}]`
    expect(error(list(MAX_SEARCH_LIST + 1))).toContain(`lists more than ${MAX_SEARCH_LIST} values`)
    expect(filters(list(MAX_SEARCH_LIST))[0]).toMatchObject({
      values: expect.arrayContaining(['0', '49']),
    })
  })
})
