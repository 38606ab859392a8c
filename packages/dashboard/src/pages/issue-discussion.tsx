/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */

import type { IssueActivity, IssueActivityPage, IssueComment, IssueCommentPage } from '@tis/schema'
import type { DashboardApp, Deps, Session } from '../context'
import { ok } from '../engine-client'
import { relativeTime } from '../format'
import { CsrfField, type Html, Time } from '../layout'
import { Markdown } from '../markdown'
import { safeReturn } from '../render'

// An issue's comments and history on its page, and the forms that add and delete comments.

/** One history entry in words. */
function said(a: IssueActivity): string {
  const d = a.data as { from?: string | null; to?: string | null; comment_id?: string }
  switch (a.kind) {
    case 'status':
      return `changed the status from ${d.from} to ${d.to}`
    case 'assignee':
      return d.to ? `assigned ${d.to}` : `unassigned ${d.from ?? 'the issue'}`
    case 'comment':
      return 'commented'
    case 'comment_deleted':
      return 'deleted a comment'
    case 'ignore_met':
      return `reopened the issue: its ignore condition ${JSON.stringify((a.data as { condition?: unknown }).condition)} was met`
    case 'merge': {
      const merged = (a.data as { merged?: { title?: string; count?: number }[] }).merged ?? []
      const named = merged.map((m) => `"${m.title}" (${m.count} events)`).join(', ')
      return `merged ${merged.length === 1 ? 'an issue' : `${merged.length} issues`} into this one: ${named}`
    }
  }
}

/** The comments (with their delete buttons), the comment form and the history of an issue. */
export function IssueDiscussion(props: {
  deps: Deps
  session: Session
  path: string
  comments: readonly IssueComment[]
  activity: readonly IssueActivity[]
  ownerEmail: string | null
  back: string
}): Html {
  const { deps, session, comments, activity, path, back } = props
  const now = deps.now()
  const mayDelete = (c: IssueComment) =>
    session.admin || c.author === session.email || props.ownerEmail === session.email
  return (
    <>
      <h2 id="comments">Comments</h2>
      {comments.length === 0 && <p class="muted">No comments yet.</p>}
      <ol class="comments">
        {comments.map((c) => (
          <li id={`comment-${c.id}`}>
            <p class="muted">
              {c.author ?? 'a deleted user'}{' '}
              <Time iso={c.created_at} text={relativeTime(c.created_at, now)} />
              {mayDelete(c) && (
                <form class="inline" method="post" action={`${path}/comments/${c.id}/delete`}>
                  <CsrfField csrf={session.csrf} />
                  <input type="hidden" name="return_to" value={back} />{' '}
                  <button
                    type="submit"
                    aria-label={`Delete the comment by ${c.author ?? 'a deleted user'}`}
                  >
                    Delete
                  </button>
                </form>
              )}
            </p>
            <Markdown text={c.body} />
          </li>
        ))}
      </ol>
      <form method="post" action={`${path}/comments`} id="comment-form">
        <CsrfField csrf={session.csrf} />
        <input type="hidden" name="return_to" value={back} />
        <label for="comment-body">Add a comment (markdown)</label>
        <textarea id="comment-body" name="body" rows={4} required maxlength={10000} />
        <button type="submit">Comment</button>
      </form>
      <h2 id="activity">Activity</h2>
      {activity.length === 0 ? (
        <p class="muted">No changes yet.</p>
      ) : (
        <ol class="activity">
          {activity.map((a) => (
            <li>
              {`${a.actor ?? 'tis'} ${said(a)} `}
              <Time iso={a.created_at} text={relativeTime(a.created_at, now)} />
            </li>
          ))}
        </ol>
      )}
    </>
  )
}

/** An issue's first page of comments and of history (the newest 200 of each are shown). */
export async function loadDiscussion(
  deps: Deps,
  session: Session,
  params: { id: string; issue_id: string },
): Promise<{ comments: IssueComment[]; activity: IssueActivity[] }> {
  const reads = deps.engine.reads
  const query = { limit: '200' }
  const [comments, activity] = await Promise.all([
    session.call(reads.listIssueComments, { params, query }),
    session.call(reads.listIssueActivity, { params, query }),
  ])
  return {
    comments: ok<IssueCommentPage>(comments).comments,
    activity: ok<IssueActivityPage>(activity).activity,
  }
}

/** `POST …/issues/:issue_id/comments` and `POST …/comments/:comment_id/delete`. */
export function registerIssueDiscussion(app: DashboardApp, deps: Deps): void {
  const back = (form: Record<string, unknown>, projectId: string, issueId: string) =>
    safeReturn(form['return_to'], deps, `${deps.base}/projects/${projectId}/issues/${issueId}`)
  app.post('/projects/:id/issues/:issue_id/comments', async (c) => {
    const form = await c.req.parseBody()
    const params = { id: c.req.param('id'), issue_id: c.req.param('issue_id') }
    ok(
      await c.get('session').call(deps.engine.reads.createIssueComment, {
        params,
        body: { comment: { body: String(form['body'] ?? '') } },
      }),
    )
    return c.redirect(`${back(form, params.id, params.issue_id)}#comments`, 303)
  })
  app.post('/projects/:id/issues/:issue_id/comments/:comment_id/delete', async (c) => {
    const form = await c.req.parseBody()
    const params = {
      id: c.req.param('id'),
      issue_id: c.req.param('issue_id'),
      comment_id: c.req.param('comment_id'),
    }
    ok(await c.get('session').call(deps.engine.reads.deleteIssueComment, { params }))
    return c.redirect(`${back(form, params.id, params.issue_id)}#comments`, 303)
  })
}
