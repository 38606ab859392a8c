/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */

import type { Issue as IssueJson } from '@tis/schema'
import type { Deps, Session } from '../context'
import { CsrfField, type Html } from '../layout'

const ACTIONS = { resolved: 'Resolve', ignored: 'Ignore', unresolved: 'Reopen' } as const

/** Where an issue's action forms live and what they come back to. */
export interface IssueTarget {
  readonly issue: IssueJson
  readonly projectId: string
  /** The page to return to after the form (without JavaScript). */
  readonly back: string
  /** Replace the table row in place (with JavaScript) instead of reloading. */
  readonly inPlace: boolean
}

/** An issue status a button of {@link IssueActions} sets. */
export type ActionStatus = keyof typeof ACTIONS

/**
 * Resolve / ignore / reopen buttons: one form each, in place with JavaScript. `statuses` are the
 * buttons offered (the issue page has an ignore menu instead of the button). @default all three
 */
export function IssueActions(props: {
  deps: Deps
  session: Session
  target: IssueTarget
  statuses?: readonly ActionStatus[]
}): Html {
  const { issue, projectId, back, inPlace } = props.target
  const action = `${props.deps.base}/projects/${projectId}/issues/${issue.id}/status`
  return (
    <>
      {(props.statuses ?? (Object.keys(ACTIONS) as ActionStatus[]))
        .filter((status) => status !== issue.status)
        .map((status) => (
          <>
            <form
              class="inline"
              method="post"
              action={action}
              data-inplace={inPlace ? '' : undefined}
              data-done={`Issue ${ACTIONS[status].toLowerCase()}d`}
            >
              <CsrfField csrf={props.session.csrf} />
              <input type="hidden" name="status" value={status} />
              <input type="hidden" name="return_to" value={back} />
              <button type="submit" aria-label={`${ACTIONS[status]}: ${issue.title}`}>
                {ACTIONS[status]}
              </button>
            </form>{' '}
          </>
        ))}
    </>
  )
}
