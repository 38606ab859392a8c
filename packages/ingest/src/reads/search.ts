import {
  EVENT_SEARCH_KEYS,
  ISSUE_SEARCH_KEYS,
  type IssueSort,
  parseSearch,
  type SearchFilter,
} from '@tis/schema'
import { type EngineResponse, json } from '../http'
import type { CountCursor, IssueRecord, KeysetCursor } from '../ports'
import { decodeTaggedCursor, encodeTaggedCursor, timeToken } from './cursor'
import type { RawQuery } from './query-fields'

// `query=` of the issue inbox and the events list: the search syntax of @tis/schema, a 400
// naming the token it cannot use (docs/issues.md#search-syntax), and the inbox's sort orders with
// their cursors.

/** A parsed `query=`, or its 400 answer. */
export type SearchParse =
  | { readonly ok: true; readonly filters: readonly SearchFilter[] | undefined }
  | { readonly ok: false; readonly response: EngineResponse }

const badQuery = (error: string): SearchParse => ({
  ok: false,
  response: json(400, { error: `query ${error}` }),
})

function parse(raw: RawQuery, keys: typeof ISSUE_SEARCH_KEYS, now: Date): SearchParse {
  const text = raw['query']
  if (text === undefined) return { ok: true, filters: undefined }
  const parsed = parseSearch(text, keys, now)
  if (!parsed.ok) return badQuery(parsed.error)
  return { ok: true, filters: parsed.filters.length > 0 ? parsed.filters : undefined }
}

/** Parses `query=` of `GET …/issues`. */
export const issueSearch = (raw: RawQuery, now: Date): SearchParse =>
  parse(raw, ISSUE_SEARCH_KEYS, now)

/** Parses `query=` of `GET …/events`. */
export const eventSearch = (raw: RawQuery, now: Date): SearchParse =>
  parse(raw, EVENT_SEARCH_KEYS, now)

/** Whether a parsed query names a status (`is:resolved`): then `status` has no default. */
export const searchesStatus = (filters: readonly SearchFilter[] | undefined): boolean =>
  filters?.some((f) => f.kind === 'status') ?? false

/** Each sort's cursor tag: the default order keeps the lists' plain time cursor. */
const TAGS: Readonly<Record<IssueSort, string>> = {
  last_seen: '',
  first_seen: 'f',
  times_seen: 'n',
  users: 'u',
}

/** Decodes an issue cursor for `sort`; `null` when it is not one of that order. */
export function decodeIssueCursor(
  token: string,
  sort: IssueSort,
): KeysetCursor | CountCursor | null {
  const decoded = decodeTaggedCursor(token)
  if (!decoded || decoded.tag !== TAGS[sort]) return null
  if (sort === 'times_seen' || sort === 'users') {
    return decoded.value >= 0 ? { count: decoded.value, id: decoded.id } : null
  }
  if (Math.abs(decoded.value) > 8.64e15) return null
  return { at: new Date(decoded.value), id: decoded.id }
}

/** The cursor of the page after `issue` in the order of `sort`. */
export function issueToken(sort: IssueSort, issue: IssueRecord): string | null {
  switch (sort) {
    case 'last_seen':
      return timeToken({ at: issue.lastSeenAt, id: issue.id })
    case 'first_seen': {
      const at = issue.firstSeenAt.getTime()
      return Number.isNaN(at) ? null : encodeTaggedCursor(TAGS.first_seen, at, issue.id)
    }
    case 'times_seen':
    case 'users': {
      const count = sort === 'users' ? issue.users : issue.count
      return Number.isSafeInteger(count) && count >= 0
        ? encodeTaggedCursor(TAGS[sort], count, issue.id)
        : null
    }
  }
}
