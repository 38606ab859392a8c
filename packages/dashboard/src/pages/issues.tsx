/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */

import type { EventPage, Issue as IssueJson, IssuePage } from '@tis/schema'
import type { DashboardApp, DashboardContext, Deps } from '../context'
import { FirstEventHelp } from '../empty-state'
import { ok } from '../engine-client'
import { type Html, queryString } from '../layout'
import { loadProject, renderPage, safeReturn } from '../render'
import { loadMembers } from './issue-assign'
import { BulkBar, type BulkRefusal, NOTICE_KEYS } from './issue-bulk'
import { BULK_FORM, bulkNotice } from './issue-bulk-actions'
import { Filters, filtersAsSearch, inboxQuery } from './issue-filters'
import { IssueRow, IssueRows } from './issue-rows'

/** How the inbox says its order (`sort`). */
const ORDER_LABEL: Readonly<Record<string, string>> = {
  last_seen: 'Newest activity first',
  first_seen: 'Newest issues first',
  times_seen: 'Most events first',
  users: 'Most affected users first',
}

/** How often the inbox refreshes its first page while the tab is visible (with JavaScript). */
const LIVE_EVERY_MS = 10_000

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
    const rows = { deps, session: c.get('session'), projectId, back }
    return c.html(<IssueRows rows={rows} issues={page.issues} />)
  })
  app.get('/projects/:id/issues', (c) => renderInbox(c, deps))
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
    return c.html(<IssueRow rows={{ deps, session, projectId, back }} issue={issue} />)
  })
}

/**
 * The inbox of the request (`…/issues` or the bulk form's `…/issues/bulk`, with the inbox's
 * query); `refused` is a bulk form shown again with its error, with `status`.
 */
export async function renderInbox(
  c: DashboardContext,
  deps: Deps,
  refused?: BulkRefusal,
  status?: number,
): Promise<Response> {
  const session = c.get('session')
  const project = await loadProject(c, deps)
  const query = inboxQuery(c)
  const cursor = c.req.query('cursor') || undefined
  const [page, members] = await Promise.all([
    loadInbox(c, deps, project.id, cursor),
    loadMembers(deps, session, project.id),
  ])
  const url = new URL(c.req.url)
  for (const key of NOTICE_KEYS) url.searchParams.delete(key)
  const search = url.searchParams.size ? `?${url.searchParams}` : ''
  const path = `${deps.base}/projects/${project.id}`
  const back = `${path}/issues${search}`
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
  const live = !cursor
  const next = page.next_cursor ? queryString({ ...query, cursor: page.next_cursor }) : null
  const notice = bulkNotice((name) => c.req.query(name))
  const selected = refused?.selected
  return renderPage(c, deps, {
    title: `Issues · ${project.name}`,
    ...(page.searchError ? { status: 400 } : status ? { status } : {}),
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
        {notice && (
          <p class="notice" role="status" id="bulk-notice">
            {notice}
          </p>
        )}
        <BulkBar
          session={session}
          action={`${path}/issues/bulk${search}`}
          members={members}
          search={filtersAsSearch(query)}
          total={!cursor && !page.next_cursor ? page.issues.length : null}
          onPage={page.issues.length}
          refused={refused}
          hidden={page.issues.length === 0}
        />
        <table hidden={page.issues.length === 0 ? true : undefined} data-live-table="">
          <caption class="skip">
            Issues,{' '}
            {(ORDER_LABEL[query.sort ?? 'last_seen'] ?? ORDER_LABEL['last_seen'])!.toLowerCase()}
          </caption>
          <thead>
            <tr>
              <th scope="col" class="pick">
                <input
                  type="checkbox"
                  form={BULK_FORM}
                  name="all_on_page"
                  value="1"
                  aria-label="Select all issues on this page"
                  checked={refused?.typed['all_on_page'] ? true : undefined}
                  data-pick-all=""
                />
              </th>
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
              rows={{ deps, session, projectId: project.id, back, selected }}
              issues={page.issues}
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
}
