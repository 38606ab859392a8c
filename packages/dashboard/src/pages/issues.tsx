/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */

import type { EventPage, Issue as IssueJson, IssuePage } from '@tis/schema'
import { Sparkline } from '../charts'
import type { DashboardApp, DashboardContext, Deps, Session } from '../context'
import { FirstEventHelp } from '../empty-state'
import { ok } from '../engine-client'
import { relativeTime } from '../format'
import { Badge, type Html, queryString, Time } from '../layout'
import { loadProject, renderPage, safeReturn } from '../render'
import { IssueActions } from './issue-actions'
import { Filters, inboxQuery } from './issue-filters'
import { ReleaseLink } from './release-link'

/** How the inbox says its order (`sort`). */
const ORDER_LABEL: Readonly<Record<string, string>> = {
  last_seen: 'Newest activity first',
  first_seen: 'Newest issues first',
  times_seen: 'Most events first',
  users: 'Most affected users first',
}

/** How often the inbox refreshes its first page while the tab is visible (with JavaScript). */
const LIVE_EVERY_MS = 10_000

function sparklineLabel(counts: readonly number[]) {
  const total = counts.reduce((a, b) => a + b, 0)
  return `${total} event${total === 1 ? '' : 's'} in the last 24 hours`
}

/** One inbox row; `back` is where its forms return to without JavaScript. */
function IssueRow(props: {
  deps: Deps
  session: Session
  issue: IssueJson
  back: string
  projectId: string
}): Html {
  const { deps, session, issue, projectId } = props
  const now = deps.now()
  return (
    <tr data-row={issue.id}>
      <td>
        <a href={`${deps.base}/projects/${projectId}/issues/${issue.id}`}>{issue.title}</a>
        <div class="muted">
          {issue.level}
          {issue.regression_count ? ` · regressed ${issue.regression_count}×` : ''}
          {issue.assignee ? ` · assigned to ${issue.assignee}` : ''}
        </div>
      </td>
      <td>
        <Badge value={issue.status} />
        {issue.events_expired && (
          <>
            {' '}
            <span class="badge s-expired" title="Every event is past the retention period">
              events expired
            </span>
          </>
        )}
      </td>
      <td class="num">{issue.count}</td>
      <td class="num">{issue.users}</td>
      <td>
        <Time iso={issue.first_seen_at} text={relativeTime(issue.first_seen_at, now)} />
      </td>
      <td>
        <Time iso={issue.last_seen_at} text={relativeTime(issue.last_seen_at, now)} />
      </td>
      <td>
        <ReleaseLink base={deps.base} projectId={projectId} version={issue.last_release} />
      </td>
      {issue.sparkline ? (
        <td data-keep="sparkline">
          <Sparkline values={issue.sparkline} label={sparklineLabel(issue.sparkline)} />
        </td>
      ) : (
        // A row re-rendered after an action keeps the sparkline it had (see dashboard.js).
        <td data-keep="sparkline"></td>
      )}
      <td class="actions">
        <IssueActions
          deps={deps}
          session={session}
          target={{ issue, projectId, back: props.back, inPlace: true }}
        />
      </td>
    </tr>
  )
}

function IssueRows(props: {
  deps: Deps
  session: Session
  issues: readonly IssueJson[]
  back: string
  projectId: string
}): Html {
  return (
    <>
      {props.issues.map((issue) => (
        <IssueRow
          deps={props.deps}
          session={props.session}
          issue={issue}
          back={props.back}
          projectId={props.projectId}
        />
      ))}
    </>
  )
}

/** One page of the inbox; a search the syntax rejects is an empty page with its message. */
async function loadInbox(
  c: DashboardContext,
  deps: Deps,
  projectId: string,
  cursor?: string,
): Promise<IssuePage & { searchError?: string }> {
  const response = await c.get('session').call(deps.engine.reads.listIssues, {
    params: { id: projectId },
    query: { ...inboxQuery(c), cursor, sparkline: '24h' },
  })
  if (response.status === 400) {
    const { error } = response.body as { error: string }
    return { issues: [], next_cursor: null, searchError: error }
  }
  return ok<IssuePage>(response)
}

/**
 * `GET /projects/:id/issues` (the inbox), its live `GET …/inbox-rows` fragment and
 * `POST …/issues/:issue_id/status`.
 */
export function registerIssues(app: DashboardApp, deps: Deps): void {
  app.get('/projects/:id', (c) =>
    c.redirect(`${deps.base}/projects/${c.req.param('id')}/issues`, 303),
  )
  app.get('/projects/:id/inbox-rows', async (c) => {
    const projectId = c.req.param('id')
    const page = await loadInbox(c, deps, projectId)
    const back = `${deps.base}/projects/${projectId}/issues${queryString(inboxQuery(c))}`
    return c.html(
      <IssueRows
        deps={deps}
        session={c.get('session')}
        issues={page.issues}
        back={back}
        projectId={projectId}
      />,
    )
  })
  app.get('/projects/:id/issues', async (c) => {
    const session = c.get('session')
    const project = await loadProject(c, deps)
    const query = inboxQuery(c)
    const cursor = c.req.query('cursor') || undefined
    const page = await loadInbox(c, deps, project.id, cursor)
    const url = new URL(c.req.url)
    const back = url.pathname + url.search
    const filtered = Boolean(
      query.environment || query.release || query.q || query.query || query.status !== 'unresolved',
    )
    let empty: Html = <p class="empty">No issues match these filters.</p>
    if (page.issues.length === 0 && !filtered) {
      const any = ok<EventPage>(
        await session.call(deps.engine.reads.listEvents, {
          params: { id: project.id },
          query: { limit: '1' },
        }),
      )
      empty = any.events.length ? (
        <p class="empty">No unresolved issues. Errors your application reports show up here.</p>
      ) : (
        <FirstEventHelp base={deps.base} origin={url.origin} projectId={project.id} />
      )
    }
    const path = `${deps.base}/projects/${project.id}`
    const live = !cursor
    const next = page.next_cursor ? queryString({ ...query, cursor: page.next_cursor }) : null
    return renderPage(c, deps, {
      title: `Issues · ${project.name}`,
      ...(page.searchError ? { status: 400 } : {}),
      project: { id: project.id, name: project.name, tab: 'issues' },
      body: (
        <>
          <h1>Issues</h1>
          <Filters c={c} deps={deps} projectId={project.id} error={page.searchError} />
          {live && (
            <p class="muted">
              {ORDER_LABEL[query.sort ?? 'last_seen'] ?? ORDER_LABEL['last_seen']}; updates every 10
              seconds while this tab is visible.
            </p>
          )}
          <table hidden={page.issues.length === 0 ? true : undefined} data-live-table="">
            <caption class="skip">
              Issues,{' '}
              {(ORDER_LABEL[query.sort ?? 'last_seen'] ?? ORDER_LABEL['last_seen'])!.toLowerCase()}
            </caption>
            <thead>
              <tr>
                <th scope="col">Issue</th>
                <th scope="col">Status</th>
                <th scope="col" class="num">
                  Events
                </th>
                <th scope="col" class="num">
                  Users
                </th>
                <th scope="col">First seen</th>
                <th scope="col">Last seen</th>
                <th scope="col">Release</th>
                <th scope="col">Last 24 h</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody
              id="inbox"
              data-live={live ? `${path}/inbox-rows${queryString(query)}` : undefined}
              data-every={live ? String(LIVE_EVERY_MS) : undefined}
              data-announce={live ? 'issues' : undefined}
            >
              <IssueRows
                deps={deps}
                session={session}
                issues={page.issues}
                back={back}
                projectId={project.id}
              />
            </tbody>
          </table>
          {page.issues.length === 0 && <div data-empty-note="">{empty}</div>}
          {next && (
            <p class="pager">
              <a href={`${path}/issues${next}`}>Next page</a>
            </p>
          )}
        </>
      ),
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
    return c.html(
      <IssueRow deps={deps} session={session} issue={issue} back={back} projectId={projectId} />,
    )
  })
}
