import { html } from 'hono/html'
import { bucketize, sparkline } from '../charts'
import type { DashboardApp, DashboardContext, Deps, Session } from '../context'
import { firstEventHelp } from '../empty-state'
import { ok } from '../engine-client'
import { hoursAgo, relativeTime } from '../format'
import { badge, csrfField, type Html, queryString, time } from '../layout'
import { loadProject, renderPage, safeReturn } from '../render'
import type { IssueJson, Page } from '../types'

const STATUSES = ['unresolved', 'resolved', 'ignored', 'all'] as const
const ACTIONS = { resolved: 'Resolve', ignored: 'Ignore', unresolved: 'Reopen' } as const

/** How many pages of recent errors the inbox scans for its sparklines (200 each). */
const SPARKLINE_PAGES = 3

/** Hourly counts per issue over the last 24 hours, and from when they are complete. */
interface Activity {
  readonly counts: ReadonlyMap<string, number[]>
  /** Where the scan stopped: earlier hours are not counted (null: the whole 24 hours are). */
  readonly coveredFrom: Date | null
}

/**
 * One bounded scan of the project's recent errors (newest first, at most 600), bucketed by
 * issue and hour: a few engine calls per page instead of one per issue.
 */
async function recentActivity(
  session: Session,
  deps: Deps,
  projectId: string,
  issueId?: string,
): Promise<Activity> {
  const now = deps.now()
  const since = hoursAgo(now, 24)
  const times = new Map<string, string[]>()
  let cursor: string | undefined
  let oldest: string | null = null
  for (let page = 0; page < SPARKLINE_PAGES; page++) {
    const result = ok<Page<'events', { occurred_at: string; issue_id: string | null }>>(
      await session.call(deps.engine.reads.listEvents, {
        params: { id: projectId },
        query: {
          since,
          limit: '200',
          cursor,
          ...(issueId ? { issue_id: issueId } : { event_type: 'error' }),
        },
      }),
    )
    for (const e of result.events) {
      if (!e.issue_id) continue
      const list = times.get(e.issue_id) ?? []
      list.push(e.occurred_at)
      times.set(e.issue_id, list)
      oldest = e.occurred_at
    }
    if (!result.next_cursor) return { counts: bucketAll(times, since, now), coveredFrom: null }
    cursor = result.next_cursor
  }
  return { counts: bucketAll(times, since, now), coveredFrom: oldest ? new Date(oldest) : null }
}

function bucketAll(times: Map<string, string[]>, since: string, now: Date) {
  const counts = new Map<string, number[]>()
  for (const [id, list] of times) counts.set(id, bucketize(list, new Date(since), now, 24))
  return counts
}

function activityLabel(counts: readonly number[], coveredFrom: Date | null, now: Date) {
  const total = counts.reduce((a, b) => a + b, 0)
  if (!coveredFrom) return `${total} events in the last 24 hours`
  return `${total} events in the last ${Math.max(1, Math.round((now.getTime() - coveredFrom.getTime()) / 3_600_000))} hours (busy project: older hours not counted)`
}

/** Where an issue's action forms live and what they come back to. */
export interface IssueTarget {
  readonly issue: IssueJson
  readonly projectId: string
  /** The page to return to after the form (without JavaScript). */
  readonly back: string
  /** Replace the table row in place (with JavaScript) instead of reloading. */
  readonly inPlace: boolean
}

/** Resolve / ignore / reopen buttons: one form each, in place with JavaScript. */
export function issueActions(deps: Deps, session: Session, target: IssueTarget): Html {
  const { issue, projectId, back, inPlace } = target
  const action = `${deps.base}/projects/${projectId}/issues/${issue.id}/status`
  return html`${(Object.keys(ACTIONS) as (keyof typeof ACTIONS)[])
    .filter((status) => status !== issue.status)
    .map(
      (
        status,
      ) => html`<form class="inline" method="post" action="${action}"${inPlace ? html` data-inplace` : ''} data-done="Issue ${ACTIONS[status].toLowerCase()}d">
${csrfField(session.csrf)}<input type="hidden" name="status" value="${status}"><input type="hidden" name="return_to" value="${back}">
<button type="submit" aria-label="${ACTIONS[status]}: ${issue.title}">${ACTIONS[status]}</button></form> `,
    )}`
}

function issueRow(
  deps: Deps,
  session: Session,
  row: Omit<IssueTarget, 'inPlace'> & { activity: Activity },
) {
  const { issue, projectId, activity } = row
  const now = deps.now()
  const counts = activity.counts.get(issue.id) ?? new Array<number>(24).fill(0)
  return html`<tr data-row="${issue.id}"><td><a href="${deps.base}/projects/${projectId}/issues/${issue.id}">${issue.title}</a>
<div class="muted">${issue.level}${issue.regression_count ? ` · regressed ${issue.regression_count}×` : ''}</div></td>
<td>${badge(issue.status)}</td><td class="num">${issue.count}</td>
<td>${time(issue.first_seen_at, relativeTime(issue.first_seen_at, now))}</td><td>${time(issue.last_seen_at, relativeTime(issue.last_seen_at, now))}</td>
<td>${issue.last_release ?? html`<span class="muted">—</span>`}</td>
<td>${sparkline(counts, activityLabel(counts, activity.coveredFrom, now))}</td>
<td class="actions">${issueActions(deps, session, { ...row, inPlace: true })}</td></tr>`
}

function filters(c: DashboardContext, deps: Deps, projectId: string) {
  const q = (name: string) => c.req.query(name) ?? ''
  const status = q('status') || 'unresolved'
  return html`<form class="filters" method="get" action="${deps.base}/projects/${projectId}/issues" role="search" aria-label="Filter issues">
<label for="f-status">Status<select id="f-status" name="status">${STATUSES.map(
    (s) => html`<option${s === status ? html` selected` : ''}>${s}</option>`,
  )}</select></label>
<label for="f-environment">Environment<input id="f-environment" name="environment" value="${q('environment')}"></label>
<label for="f-release">Release<input id="f-release" name="release" value="${q('release')}"></label>
<label for="f-q">Search<input id="f-q" type="search" name="q" value="${q('q')}"></label>
<button type="submit">Filter</button></form>`
}

/** `GET /projects/:id/issues` (the inbox) and `POST …/issues/:issue_id/status`. */
export function registerIssues(app: DashboardApp, deps: Deps): void {
  app.get('/projects/:id', (c) =>
    c.redirect(`${deps.base}/projects/${c.req.param('id')}/issues`, 303),
  )
  app.get('/projects/:id/issues', async (c) => {
    const session = c.get('session')
    const project = await loadProject(c, deps)
    const query = {
      status: c.req.query('status') || 'unresolved',
      environment: c.req.query('environment') || undefined,
      release: c.req.query('release') || undefined,
      q: c.req.query('q') || undefined,
      cursor: c.req.query('cursor') || undefined,
    }
    const page = ok<Page<'issues', IssueJson>>(
      await session.call(deps.engine.reads.listIssues, { params: { id: project.id }, query }),
    )
    const activity: Activity = page.issues.length
      ? await recentActivity(session, deps, project.id)
      : { counts: new Map(), coveredFrom: null }
    const back = new URL(c.req.url).pathname + new URL(c.req.url).search
    const filtered = Boolean(
      query.environment || query.release || query.q || query.status !== 'unresolved',
    )
    let empty: Html = html`<p class="empty">No issues match these filters.</p>`
    if (page.issues.length === 0 && !filtered) {
      const any = ok<Page<'events', unknown>>(
        await session.call(deps.engine.reads.listEvents, {
          params: { id: project.id },
          query: { limit: '1' },
        }),
      )
      empty = any.events.length
        ? html`<p class="empty">No unresolved issues. Errors your application reports show up here.</p>`
        : firstEventHelp(deps.base, new URL(c.req.url).origin, project.id)
    }
    const next = page.next_cursor ? `${queryString({ ...query, cursor: page.next_cursor })}` : null
    return renderPage(c, deps, {
      title: `Issues · ${project.name}`,
      project: { id: project.id, name: project.name, tab: 'issues' },
      body: html`<h1>Issues</h1>${filters(c, deps, project.id)}${
        page.issues.length
          ? html`<table><caption class="skip">Issues, newest activity first</caption><thead><tr><th scope="col">Issue</th><th scope="col">Status</th><th scope="col" class="num">Events</th>
<th scope="col">First seen</th><th scope="col">Last seen</th><th scope="col">Release</th><th scope="col">Last 24 h</th><th scope="col">Actions</th></tr></thead>
<tbody>${page.issues.map((i) => issueRow(deps, session, { issue: i, projectId: project.id, activity, back }))}</tbody></table>`
          : empty
      }${next ? html`<p class="pager"><a href="${deps.base}/projects/${project.id}/issues${next}">Next page</a></p>` : ''}`,
    })
  })
  app.post('/projects/:id/issues/:issue_id/status', async (c) => {
    const session = c.get('session')
    const form = await c.req.parseBody()
    const projectId = c.req.param('id')
    const issueId = c.req.param('issue_id')
    const { issue } = ok<{ issue: IssueJson }>(
      await session.call(deps.engine.reads.updateIssue, {
        params: { id: projectId, issue_id: issueId },
        body: { issue: { status: String(form['status'] ?? '') } },
      }),
    )
    const back = safeReturn(
      form['return_to'],
      deps,
      `${deps.base}/projects/${projectId}/issues/${issueId}`,
    )
    if (c.req.header('x-tis-fragment') !== '1') return c.redirect(back, 303)
    const activity = await recentActivity(session, deps, projectId, issueId)
    return c.html(issueRow(deps, session, { issue, projectId, activity, back }))
  })
}
