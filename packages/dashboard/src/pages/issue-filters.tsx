/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */

import { ISSUE_SEARCH_KEYS, ISSUE_SORTS, parseSearch } from '@tis/schema'
import type { DashboardContext, Deps } from '../context'

// The inbox's filters: the status, environment and release fields, the search box that takes the
// search syntax (docs/issues.md#search-syntax) with its help, and the order.

const STATUSES = ['unresolved', 'resolved', 'ignored', 'all'] as const

/** The syntax's keys as the help lists them, each with an example. */
const SYNTAX: readonly (readonly [string, string])[] = [
  ['is:unresolved', 'status: unresolved, resolved or ignored'],
  ['level:error', 'the issue’s level'],
  ['release:1.4.2', 'an event in this release'],
  ['environment:production', 'an event in this environment'],
  ['user.id:42', 'an event of this user'],
  ['times_seen:>100', 'more (>, >=) or fewer (<, <=) events, or exactly'],
  ['users:>=10', 'affected users, compared the same way'],
  ['assigned:me', 'assigned to you; assigned:none, assigned:<email>, is:assigned, is:unassigned'],
  ['first_seen:-24h', 'first seen in the last 24 hours (m, h, d, w); +7d: before'],
  ['last_seen:>2026-11-01', 'last seen after a date or RFC 3339 time'],
  ['!level:info', '! negates a term'],
  ['level:[error,fatal]', 'any of a list'],
  ['"read ECONNRESET"', 'free text in the title, quoted for spaces or a colon'],
]

/** Whether a search names a status (`is:resolved`), by the read API's own parser. */
function searchesStatus(query: string | undefined): boolean {
  if (!query) return false
  const parsed = parseSearch(query, ISSUE_SEARCH_KEYS, new Date())
  return parsed.ok && parsed.filters.some((f) => f.kind === 'status')
}

/** The inbox's filters from the query string (the page and its live rows share them). */
export function inboxQuery(c: DashboardContext) {
  const query = c.req.query('query') || undefined
  return {
    // A status in the search decides alone unless the field narrows it (all is no narrowing).
    status: c.req.query('status') || (searchesStatus(query) ? 'all' : 'unresolved'),
    environment: c.req.query('environment') || undefined,
    release: c.req.query('release') || undefined,
    q: c.req.query('q') || undefined,
    query,
    sort: c.req.query('sort') || undefined,
  }
}

/** The inbox's filters, as {@link inboxQuery} reads them. */
export type InboxFilters = ReturnType<typeof inboxQuery>

/**
 * The inbox's filters as one search of the syntax, for a bulk change of every issue they list
 * (`{"query": …}`); `null` when the search cannot say them. The environment and release fields
 * ask for one event with both, which two search terms do not; a status field that narrows a
 * search's own status is two conditions in one.
 */
export function filtersAsSearch(f: InboxFilters): string | null {
  if (f.environment || f.release || f.q) return null
  const query = (f.query ?? '').trim()
  if (searchesStatus(query)) return f.status === 'all' ? query : null
  const every = STATUSES.filter((s) => s !== 'all').join(',')
  const status = f.status === 'all' ? `is:[${every}]` : `is:${f.status}`
  return query ? `${status} ${query}` : status
}

/** The filter form; `error` is the search's 400 message, shown beside the search box. */
export function Filters(props: {
  c: DashboardContext
  deps: Deps
  projectId: string
  error?: string | undefined
}) {
  const { c, deps, projectId, error } = props
  const f = inboxQuery(c)
  const sort = f.sort ?? 'last_seen'
  return (
    <search aria-label="Filter issues">
      <form class="filters" method="get" action={`${deps.base}/projects/${projectId}/issues`}>
        <label for="f-query" class="wide">
          Search
          <input
            id="f-query"
            type="search"
            name="query"
            value={f.query ?? ''}
            placeholder="is:unresolved level:error release:1.4.2"
            aria-describedby={error ? 'f-query-error f-query-help' : 'f-query-help'}
            aria-invalid={error ? 'true' : undefined}
            autocomplete="off"
            spellcheck={false}
          />
        </label>
        {f.q && <input type="hidden" name="q" value={f.q} />}
        <label for="f-status">
          Status
          <select id="f-status" name="status">
            {STATUSES.map((s) => (
              <option selected={s === f.status}>{s}</option>
            ))}
          </select>
        </label>
        <label for="f-environment">
          Environment
          <input id="f-environment" name="environment" value={f.environment ?? ''} />
        </label>
        <label for="f-release">
          Release
          <input id="f-release" name="release" value={f.release ?? ''} />
        </label>
        <label for="f-sort">
          Sort by
          <select id="f-sort" name="sort">
            {ISSUE_SORTS.map((s) => (
              <option value={s} selected={s === sort}>
                {s.replace('_', ' ')}
              </option>
            ))}
          </select>
        </label>
        <button type="submit">Filter</button>
      </form>
      {error && (
        <p class="alert" role="alert" id="f-query-error">
          Search: {error}
        </p>
      )}
      <details class="search-help" id="f-query-help">
        <summary>Search syntax</summary>
        <p>Terms are separated by spaces and all must hold.</p>
        <table>
          <caption class="skip">Search terms</caption>
          <thead>
            <tr>
              <th scope="col">Term</th>
              <th scope="col">Matches</th>
            </tr>
          </thead>
          <tbody>
            {SYNTAX.map(([term, meaning]) => (
              <tr>
                <td>
                  <code>{term}</code>
                </td>
                <td>{meaning}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </search>
  )
}
