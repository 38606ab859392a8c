import { html } from 'hono/html'
import type { DashboardApp, DashboardContext, Deps } from '../context'
import { firstEventHelp } from '../empty-state'
import { ok } from '../engine-client'
import { queryString } from '../layout'
import { loadProject, renderPage } from '../render'
import type { EventJson, Page } from '../types'
import { eventRows } from './event-table'

const TYPES = ['', 'error', 'log', 'metric', 'transaction', 'check_in'] as const
const LEVELS = ['', 'debug', 'info', 'warning', 'error', 'fatal'] as const

function filterQuery(c: DashboardContext) {
  return {
    event_type: c.req.query('type') || undefined,
    level: c.req.query('level') || undefined,
    q: c.req.query('q') || undefined,
  }
}

async function loadFeed(c: DashboardContext, deps: Deps, projectId: string) {
  const cursor = c.req.query('cursor') || undefined
  return ok<Page<'events', EventJson>>(
    await c.get('session').call(deps.engine.reads.listEvents, {
      params: { id: projectId },
      query: { ...filterQuery(c), cursor, limit: '50' },
    }),
  )
}

const select = (
  id: string,
  label: string,
  name: string,
  values: readonly string[],
  current: string,
) =>
  html`<label for="${id}">${label}<select id="${id}" name="${name}">${values.map(
    (v) => html`<option value="${v}"${v === current ? html` selected` : ''}>${v || 'any'}</option>`,
  )}</select></label>`

/** `GET /projects/:id/activity` (logs, metrics and errors, live) and its `/rows` fragment. */
export function registerActivity(app: DashboardApp, deps: Deps): void {
  app.get('/projects/:id/activity/rows', async (c) => {
    const page = await loadFeed(c, deps, c.req.param('id'))
    return c.html(eventRows(deps, c.req.param('id'), page.events))
  })
  app.get('/projects/:id/activity', async (c) => {
    const project = await loadProject(c, deps)
    const page = await loadFeed(c, deps, project.id)
    const filters = filterQuery(c)
    const qs = queryString({ type: filters.event_type, level: filters.level, q: filters.q })
    const live = !c.req.query('cursor')
    const path = `${deps.base}/projects/${project.id}/activity`
    const filtered = Boolean(filters.event_type || filters.level || filters.q)
    return renderPage(c, deps, {
      title: `Activity · ${project.name}`,
      project: { id: project.id, name: project.name, tab: 'activity' },
      body: html`<h1>Activity</h1>
<form class="filters" method="get" action="${path}" role="search" aria-label="Filter activity">
${select('f-type', 'Type', 'type', TYPES, filters.event_type ?? '')}${select('f-level', 'Level', 'level', LEVELS, filters.level ?? '')}
<label for="f-q">Search<input id="f-q" type="search" name="q" value="${filters.q ?? ''}"></label><button type="submit">Filter</button></form>
${live ? html`<p class="muted">Newest first; updates every 5 seconds while this tab is visible.</p>` : ''}
<table><caption class="skip">Activity, newest first</caption><thead><tr><th scope="col">Time</th><th scope="col">Type</th><th scope="col">Level</th>
<th scope="col">Message</th><th scope="col">Environment</th><th scope="col">Release</th><th scope="col">Trace</th></tr></thead>
<tbody id="feed"${live ? html` data-live="${path}/rows${qs}" data-every="5000"` : ''}>${eventRows(deps, project.id, page.events)}</tbody></table>
${page.events.length === 0 ? (filtered ? html`<p class="empty">Nothing matches these filters.</p>` : firstEventHelp(deps.base, new URL(c.req.url).origin, project.id)) : ''}
${page.next_cursor ? html`<p class="pager"><a href="${path}${queryString({ type: filters.event_type, level: filters.level, q: filters.q, cursor: page.next_cursor })}">Older</a></p>` : ''}`,
    })
  })
}
