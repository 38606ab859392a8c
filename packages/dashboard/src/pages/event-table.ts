import { html } from 'hono/html'
import type { Deps } from '../context'
import { relativeTime } from '../format'
import { badge, type Html, time } from '../layout'
import type { EventJson } from '../types'

/** The rows of an event list (the live activity feed replaces just these). */
export function eventRows(deps: Deps, projectId: string, events: readonly EventJson[]): Html {
  const now = deps.now()
  return html`${events.map(
    (
      e,
    ) => html`<tr><td>${time(e.occurred_at, relativeTime(e.occurred_at, now))}</td><td>${e.event_type}</td><td>${badge(e.level)}</td>
<td>${e.issue_id ? html`<a href="${deps.base}/projects/${projectId}/issues/${e.issue_id}">${e.message ?? '(no message)'}</a>` : (e.message ?? '')}</td>
<td>${e.environment ?? ''}</td><td>${e.release ?? ''}</td><td>${
      e.trace_id
        ? html`<a href="${deps.base}/projects/${projectId}/traces/${e.trace_id}">trace</a>`
        : ''
    }</td></tr>`,
  )}`
}

/** A table of events, newest first; `caption` names it for screen readers. */
export function eventTable(
  deps: Deps,
  projectId: string,
  events: readonly EventJson[],
  caption: string,
): Html {
  if (events.length === 0) return html`<p class="muted">None.</p>`
  return html`<table><caption class="skip">${caption}</caption><thead><tr><th scope="col">Time</th><th scope="col">Type</th><th scope="col">Level</th>
<th scope="col">Message</th><th scope="col">Environment</th><th scope="col">Release</th><th scope="col">Trace</th></tr></thead>
<tbody>${eventRows(deps, projectId, events)}</tbody></table>`
}
