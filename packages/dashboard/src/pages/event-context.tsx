/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */

import type { Html } from '../layout'
import { StoredValue } from './filtered'

// The stored context of an event on its page: key/value tables (request, tags, the rest of the
// context), the breadcrumbs, and what data scrubbing filtered from it (docs/data-scrubbing.md).

/** The keys of `context` shown in sections of their own, not under "Context". */
const OWN_SECTIONS = new Set(['exception', 'request', 'tags', 'breadcrumbs', 'data_scrubbing'])

const record = (value: unknown): Record<string, unknown> | null =>
  value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null

/** A table of one object's keys and values (strings as text, the rest as compact JSON). */
export function KeyValues(props: { values: Record<string, unknown>; caption: string }): Html {
  const entries = Object.entries(props.values)
  if (entries.length === 0) return <p class="muted">None.</p>
  return (
    <table>
      <caption class="skip">{props.caption}</caption>
      <tbody>
        {entries.map(([k, v]) => (
          <tr>
            <th scope="row">{k}</th>
            <td>
              <StoredValue value={v} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

/**
 * "3 values filtered by data scrubbing (sensitive key 2, credit card 1)" for a stored
 * `context.data_scrubbing`, else `null`.
 */
export function scrubbingLine(report: unknown): string | null {
  const r = record(report)
  const filtered = r?.['filtered']
  if (typeof filtered !== 'number' || !Number.isInteger(filtered) || filtered <= 0) return null
  const rules = Object.entries(record(r?.['rules']) ?? {})
    .filter((entry): entry is [string, number] => typeof entry[1] === 'number')
    // The storage keeps no order of its own: the rule that filtered most first.
    .sort(([a, m], [b, n]) => n - m || a.localeCompare(b))
    .map(([rule, n]) => `${rule.replaceAll('_', ' ')} ${n}`)
  const what = `${filtered} value${filtered === 1 ? '' : 's'} filtered by data scrubbing`
  return rules.length > 0 ? `${what} (${rules.join(', ')})` : what
}

/** What data scrubbing filtered from the event (`context.data_scrubbing`), when anything was. */
export function ScrubbingReport({ context }: { context: Record<string, unknown> }): Html | null {
  const line = scrubbingLine(context['data_scrubbing'])
  if (!line) return null
  return (
    <p class="muted" id="data-scrubbing-report">
      {`${line}. `}
      <a href="/docs/data-scrubbing.html">About data scrubbing</a>
    </p>
  )
}

/** The event's breadcrumbs (`context.breadcrumbs`, oldest first), when it has any. */
export function Breadcrumbs({ context }: { context: Record<string, unknown> }): Html | null {
  const crumbs = Array.isArray(context['breadcrumbs']) ? context['breadcrumbs'] : []
  if (crumbs.length === 0) return null
  const cell = (crumb: Record<string, unknown>, key: string) =>
    crumb[key] === undefined || crumb[key] === null ? '' : <StoredValue value={crumb[key]} />
  return (
    <>
      <h2 id="breadcrumbs">Breadcrumbs</h2>
      <table>
        <caption class="skip">Breadcrumbs, oldest first</caption>
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Category</th>
            <th scope="col">Level</th>
            <th scope="col">Message</th>
            <th scope="col">Data</th>
          </tr>
        </thead>
        <tbody>
          {crumbs.map((value) => {
            const crumb = record(value)
            return crumb ? (
              <tr>
                <td>{cell(crumb, 'timestamp')}</td>
                <td>{cell(crumb, 'category') || cell(crumb, 'type')}</td>
                <td>{cell(crumb, 'level')}</td>
                <td>{cell(crumb, 'message')}</td>
                <td>{cell(crumb, 'data')}</td>
              </tr>
            ) : (
              <tr>
                <td colspan={5}>
                  <StoredValue value={value} />
                </td>
              </tr>
            )
          })}
        </tbody>
      </table>
    </>
  )
}

/** The rest of the event's context (`user`, `extra`, `contexts`, fields of its own…), if any. */
export function OtherContext({ context }: { context: Record<string, unknown> }): Html | null {
  const rest = Object.fromEntries(Object.entries(context).filter(([k]) => !OWN_SECTIONS.has(k)))
  if (Object.keys(rest).length === 0) return null
  return (
    <>
      <h2 id="event-context">Context</h2>
      <KeyValues values={rest} caption="The rest of the event's context" />
    </>
  )
}
