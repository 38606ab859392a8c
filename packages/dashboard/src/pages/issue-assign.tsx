/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */

import type { Issue as IssueJson, MemberList } from '@tis/schema'
import type { DashboardApp, Deps, Session } from '../context'
import { ok } from '../engine-client'
import { CsrfField, type Html } from '../layout'
import { safeReturn } from '../render'

/** The assignee picker of an issue page: the project's owner and members, or nobody. */
export function AssigneeForm(props: {
  deps: Deps
  session: Session
  issue: IssueJson
  projectId: string
  members: MemberList['members']
  back: string
}): Html {
  const { issue, members } = props
  const action = `${props.deps.base}/projects/${props.projectId}/issues/${issue.id}/assignee`
  return (
    <form class="inline" method="post" action={action} id="assignee">
      <CsrfField csrf={props.session.csrf} />
      <input type="hidden" name="return_to" value={props.back} />
      <label for="assignee-select">Assignee </label>
      <select id="assignee-select" name="assignee">
        <option value="" selected={issue.assignee === null}>
          Unassigned
        </option>
        {members.map((m) => (
          <option value={m.email} selected={m.email === issue.assignee}>
            {m.email}
          </option>
        ))}
      </select>{' '}
      <button type="submit">Assign</button>
    </form>
  )
}

/** The project's members for {@link AssigneeForm}. */
export async function loadMembers(
  deps: Deps,
  session: Session,
  projectId: string,
): Promise<MemberList['members']> {
  const listed = await session.call(deps.engine.management.listMembers, {
    params: { id: projectId },
  })
  return ok<MemberList>(listed).members
}

/** `POST /projects/:id/issues/:issue_id/assignee`: assigns (or unassigns, empty) and goes back. */
export function registerIssueAssign(app: DashboardApp, deps: Deps): void {
  app.post('/projects/:id/issues/:issue_id/assignee', async (c) => {
    const session = c.get('session')
    const form = await c.req.parseBody()
    const projectId = c.req.param('id')
    const issueId = c.req.param('issue_id')
    const email = String(form['assignee'] ?? '').trim()
    ok(
      await session.call(deps.engine.reads.updateIssue, {
        params: { id: projectId, issue_id: issueId },
        body: { issue: { assignee: email === '' ? null : email } },
      }),
    )
    return c.redirect(
      safeReturn(form['return_to'], deps, `${deps.base}/projects/${projectId}/issues/${issueId}`),
      303,
    )
  })
}
