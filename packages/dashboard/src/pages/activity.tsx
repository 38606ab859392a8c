/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */

import type { EventPage } from '@tis/schema'
import type { DashboardApp, DashboardContext, Deps } from '../context'
import { FirstEventHelp } from '../empty-state'
import { ok } from '../engine-client'
import { queryString } from '../layout'
import { loadProject, renderPage } from '../render'
import { EventHead, EventRows } from './event-table'

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
  return ok<EventPage>(
    await c.get('session').call(deps.engine.reads.listEvents, {
      params: { id: projectId },
      query: { ...filterQuery(c), cursor, limit: '50' },
    }),
  )
}

function Select(props: {
  id: string
  label: string
  name: string
  values: readonly string[]
  current: string
}) {
  return (
    <label for={props.id}>
      {props.label}
      <select id={props.id} name={props.name}>
        {props.values.map((v) => (
          <option value={v} selected={v === props.current}>
            {v || 'any'}
          </option>
        ))}
      </select>
    </label>
  )
}

/** `GET /projects/:id/activity` (logs, metrics and errors, live) and its `/rows` fragment. */
export function registerActivity(app: DashboardApp, deps: Deps): void {
  app.get('/projects/:id/activity/rows', async (c) => {
    const page = await loadFeed(c, deps, c.req.param('id'))
    return c.html(<EventRows deps={deps} projectId={c.req.param('id')} events={page.events} />)
  })
  app.get('/projects/:id/activity', async (c) => {
    const project = await loadProject(c, deps)
    const page = await loadFeed(c, deps, project.id)
    const filters = filterQuery(c)
    const qs = queryString({ type: filters.event_type, level: filters.level, q: filters.q })
    const live = !c.req.query('cursor')
    const path = `${deps.base}/projects/${project.id}/activity`
    const filtered = Boolean(filters.event_type || filters.level || filters.q)
    const older = page.next_cursor
      ? queryString({
          type: filters.event_type,
          level: filters.level,
          q: filters.q,
          cursor: page.next_cursor,
        })
      : null
    return renderPage(c, deps, {
      title: `Activity · ${project.name}`,
      project: { id: project.id, name: project.name, tab: 'activity' },
      body: (
        <>
          <h1>Activity</h1>
          <search aria-label="Filter activity">
            <form class="filters" method="get" action={path}>
              <Select
                id="f-type"
                label="Type"
                name="type"
                values={TYPES}
                current={filters.event_type ?? ''}
              />
              <Select
                id="f-level"
                label="Level"
                name="level"
                values={LEVELS}
                current={filters.level ?? ''}
              />
              <label for="f-q">
                Search
                <input id="f-q" type="search" name="q" value={filters.q ?? ''} />
              </label>
              <button type="submit">Filter</button>
            </form>
          </search>
          {live && (
            <p class="muted">Newest first; updates every 5 seconds while this tab is visible.</p>
          )}
          <table>
            <caption class="skip">Activity, newest first</caption>
            <EventHead />
            <tbody
              id="feed"
              data-live={live ? `${path}/rows${qs}` : undefined}
              data-every={live ? '5000' : undefined}
            >
              <EventRows deps={deps} projectId={project.id} events={page.events} />
            </tbody>
          </table>
          {page.events.length === 0 &&
            (filtered ? (
              <p class="empty">Nothing matches these filters.</p>
            ) : (
              <FirstEventHelp
                base={deps.base}
                origin={new URL(c.req.url).origin}
                projectId={project.id}
              />
            ))}
          {older && (
            <p class="pager">
              <a href={`${path}${older}`}>Older</a>
            </p>
          )}
        </>
      ),
    })
  })
}
