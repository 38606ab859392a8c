import { isRfc3339DateTime, parseDateTime } from '../formats'
import { type SearchToken, tokenizeSearch } from './tokens'

// The search syntax of the issue inbox and the events list, one parser for the read API, the
// dashboard and the CLI (docs/issues.md#search-syntax). Terms are ANDed; `!` negates one; a
// bracketed list matches any of its items. Each list names the keys it knows: any other key is an
// error naming it, never a term silently ignored.

/** A comparison of a count or a time. `=` is equality. */
export type SearchOp = '>' | '>=' | '<' | '<=' | '='

/** One bound of a count or time term. */
export interface SearchBound<T> {
  readonly op: SearchOp
  readonly value: T
}

/** Whom an `assigned:` term (or `is:assigned` / `is:unassigned`) matches. */
export type AssigneeMatch =
  | { readonly kind: 'me' }
  | { readonly kind: 'none' }
  | { readonly kind: 'any' }
  | { readonly kind: 'email'; readonly email: string }
  /** Never parsed: what a server resolves `me` and an email to before its store sees them. */
  | { readonly kind: 'user'; readonly userId: string }

/** The statuses `is:` matches. */
export const SEARCH_STATUSES = ['unresolved', 'resolved', 'ignored'] as const
/** An issue status as `is:` names it. */
export type SearchStatus = (typeof SEARCH_STATUSES)[number]

/** Fields matched by exact value. */
export type SearchValueField = 'level' | 'release' | 'environment' | 'user.id'
/** Fields compared as counts. */
export type SearchCountField = 'times_seen' | 'users'
/** Fields compared as times. */
export type SearchTimeField = 'first_seen' | 'last_seen' | 'timestamp'

/** One term of a parsed query. Several terms all hold (AND); `negated` inverts one term. */
export type SearchFilter =
  | { readonly kind: 'status'; readonly negated: boolean; readonly values: readonly SearchStatus[] }
  | {
      readonly kind: 'assigned'
      readonly negated: boolean
      readonly values: readonly AssigneeMatch[]
    }
  | {
      readonly kind: 'value'
      readonly field: SearchValueField
      readonly negated: boolean
      readonly values: readonly string[]
    }
  | {
      readonly kind: 'count'
      readonly field: SearchCountField
      readonly negated: boolean
      /** All hold: `first_seen:2026-11-01` is two bounds, that day's start and end. */
      readonly bounds: readonly SearchBound<number>[]
    }
  | {
      readonly kind: 'time'
      readonly field: SearchTimeField
      readonly negated: boolean
      readonly bounds: readonly SearchBound<Date>[]
    }
  /** Free text: a case-insensitive substring of the list's text (an issue's title and culprit). */
  | { readonly kind: 'text'; readonly negated: boolean; readonly value: string }

type KeyKind = 'is' | 'assigned' | SearchValueField | SearchCountField | SearchTimeField

/** The keys of `GET …/issues?query=`. */
export const ISSUE_SEARCH_KEYS: readonly KeyKind[] = [
  'is',
  'level',
  'release',
  'environment',
  'assigned',
  'user.id',
  'times_seen',
  'users',
  'first_seen',
  'last_seen',
]
/** The keys of `GET …/events?query=`. */
export const EVENT_SEARCH_KEYS: readonly KeyKind[] = [
  'level',
  'release',
  'environment',
  'user.id',
  'timestamp',
]

/** Sentry's spellings, accepted as the same keys. */
const ALIASES: Readonly<Record<string, KeyKind>> = {
  firstSeen: 'first_seen',
  lastSeen: 'last_seen',
  timesSeen: 'times_seen',
  assigned_to: 'assigned',
  env: 'environment',
}

/** A parsed query, or the message naming what is wrong (it reads after "query "). */
export type SearchResult =
  | { readonly ok: true; readonly filters: readonly SearchFilter[] }
  | { readonly ok: false; readonly error: string }

const DAY_MS = 86_400_000
const UNIT_MS: Readonly<Record<string, number>> = {
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
  d: DAY_MS,
  w: 7 * DAY_MS,
}
const RELATIVE = /^([-+])(\d{1,6})([smhdw])$/
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/
const COMPARISON = /^(>=|<=|>|<)?(.*)$/s

class SearchError extends Error {}
const fail = (message: string): never => {
  throw new SearchError(message)
}

/** A time value: `2026-11-01` (UTC midnight), an RFC 3339 date-time, or `-24h` from `now`. */
function instant(text: string, token: SearchToken, now: Date): { at: Date; day: boolean } {
  const found = anyInstant(text, token, now)
  const year = found.at.getUTCFullYear()
  // Years 1 to 9999: what every store and RFC 3339 can hold.
  if (!(year >= 1 && year <= 9999)) fail(`has a time outside the years 1 to 9999 in ${token.raw}`)
  return found
}

function anyInstant(text: string, token: SearchToken, now: Date): { at: Date; day: boolean } {
  const relative = RELATIVE.exec(text)
  if (relative) {
    return {
      at: new Date(now.getTime() - Number(relative[2]) * UNIT_MS[relative[3]!]!),
      day: false,
    }
  }
  const date = DATE.exec(text)
  if (date) {
    const at = new Date(`${text}T00:00:00Z`)
    if (!Number.isNaN(at.getTime()) && at.toISOString().startsWith(text)) return { at, day: true }
  }
  if (isRfc3339DateTime(text)) return { at: parseDateTime(text), day: false }
  return fail(
    `has a time that is not one in ${token.raw} (a date like 2026-11-01, an RFC 3339 date-time, or an age like -24h, -7d)`,
  )
}

/** The bounds of a time term: `-24h` is newer than a day ago, `+24h` older, `>`/`<` compare. */
function timeBounds(token: SearchToken, now: Date): SearchBound<Date>[] {
  const value = single(token)
  const relative = RELATIVE.exec(value)
  if (relative) {
    const { at } = instant(value, token, now)
    return [{ op: relative[1] === '-' ? '>=' : '<', value: at }]
  }
  const [, op, rest] = COMPARISON.exec(value)!
  const { at, day } = instant(rest!, token, now)
  if (op) return [{ op: op as SearchOp, value: at }]
  if (!day) {
    return fail(
      `needs > or < before a date-time in ${token.raw} (a bare date means that whole UTC day)`,
    )
  }
  const end = new Date(at.getTime() + DAY_MS)
  // The day after 9999-12-31 is past what a store can compare with: its last millisecond ends it.
  const last = end.getUTCFullYear() > 9999
  return [
    { op: '>=', value: at },
    last ? { op: '<=', value: new Date(end.getTime() - 1) } : { op: '<', value: end },
  ]
}

/** The bounds of a count term: `>10`, `<=3`, `5`. */
function countBounds(token: SearchToken): SearchBound<number>[] {
  const [, op, digits] = COMPARISON.exec(single(token))!
  if (!/^\d{1,15}$/.test(digits!)) {
    return fail(`needs a whole number in ${token.raw} (like ${token.key}:>10)`)
  }
  return [{ op: (op ?? '=') as SearchOp, value: Number(digits) }]
}

function single(token: SearchToken): string {
  if (token.values.length > 1) fail(`cannot list values in ${token.raw}: compare one value`)
  return token.values[0]!
}

function assignee(value: string, token: SearchToken): AssigneeMatch {
  if (value === 'me') return { kind: 'me' }
  if (value === 'none') return { kind: 'none' }
  if (/^[^\s@]+@[^\s@]+$/.test(value)) return { kind: 'email', email: value.toLowerCase() }
  return fail(`has an assignee that is not me, none or an email in ${token.raw}`)
}

/** The `is:` term: statuses, or an assignment (`assigned`, `unassigned`), not both at once. */
function isFilter(token: SearchToken): SearchFilter {
  const allowed = [...SEARCH_STATUSES, 'assigned', 'unassigned']
  for (const v of token.values) {
    if (!allowed.includes(v))
      fail(`has an unknown value "${v}" in ${token.raw} (is: takes ${allowed.join(', ')})`)
  }
  const statuses = token.values.filter((v): v is SearchStatus =>
    (SEARCH_STATUSES as readonly string[]).includes(v),
  )
  if (statuses.length === token.values.length) {
    return { kind: 'status', negated: token.negated, values: statuses }
  }
  if (statuses.length > 0) fail(`mixes a status and an assignment in ${token.raw}: write two terms`)
  const values: AssigneeMatch[] = token.values.map((v) =>
    v === 'assigned' ? { kind: 'any' } : { kind: 'none' },
  )
  return { kind: 'assigned', negated: token.negated, values }
}

function filterOf(token: SearchToken, keys: readonly KeyKind[], now: Date): SearchFilter {
  if (token.key === null) return { kind: 'text', negated: token.negated, value: token.values[0]! }
  const key = (ALIASES[token.key] ?? token.key.toLowerCase()) as KeyKind
  if (!keys.includes(key)) {
    return fail(
      `has an unknown key "${token.key}" in ${token.raw} (the keys are ${keys.join(', ')}; quote free text that contains a colon)`,
    )
  }
  if (token.values.some((v) => v === '')) {
    return fail(`has no value after ${token.key}: (quote a value that contains spaces)`)
  }
  const negated = token.negated
  switch (key) {
    case 'is':
      return isFilter(token)
    case 'assigned':
      return { kind: 'assigned', negated, values: token.values.map((v) => assignee(v, token)) }
    case 'times_seen':
    case 'users':
      return { kind: 'count', field: key, negated, bounds: countBounds(token) }
    case 'first_seen':
    case 'last_seen':
    case 'timestamp':
      return { kind: 'time', field: key, negated, bounds: timeBounds(token, now) }
    default:
      return { kind: 'value', field: key, negated, values: token.values }
  }
}

/**
 * Parses a search query against the keys one list knows (`ISSUE_SEARCH_KEYS`,
 * `EVENT_SEARCH_KEYS`). Relative times (`-24h`) count back from `now`. A failure names the
 * token and what is wrong with it; its message reads after the word "query".
 */
export function parseSearch(text: string, keys: readonly KeyKind[], now: Date): SearchResult {
  const lexed = tokenizeSearch(text)
  if (!lexed.ok) return lexed
  try {
    return { ok: true, filters: lexed.tokens.map((t) => filterOf(t, keys, now)) }
  } catch (error) {
    if (error instanceof SearchError) return { ok: false, error: error.message }
    throw error
  }
}

/** The orders of the issue inbox (`sort=`); `last_seen` is the default. */
export const ISSUE_SORTS = ['last_seen', 'first_seen', 'times_seen', 'users'] as const
/** One order of the issue inbox. */
export type IssueSort = (typeof ISSUE_SORTS)[number]
