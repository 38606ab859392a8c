/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */

import type { Issue as IssueJson } from '@tis/schema'
import { Sparkline } from '../charts'
import type { Deps, Session } from '../context'
import { relativeTime } from '../format'
import { Badge, type Html, Time } from '../layout'
import { IssueActions } from './issue-actions'
import { BULK_FORM } from './issue-bulk-actions'
import { ignoreSaid } from './issue-ignore'
import { ReleaseLink } from './release-link'

// The inbox's rows: the page's table body and its live fragment render the same rows.

function sparklineLabel(counts: readonly number[]) {
  const total = counts.reduce((a, b) => a + b, 0)
  return `${total} event${total === 1 ? '' : 's'} in the last 24 hours`
}

/** What every row of one inbox page shares. */
export interface RowsContext {
  readonly deps: Deps
  readonly session: Session
  readonly projectId: string
  /** Where the rows' forms return to without JavaScript. */
  readonly back: string
  /** The ids checked for the bulk bar (kept when a bulk form is refused). */
  readonly selected?: ReadonlySet<string> | undefined
}

/**
 * One inbox row: its bulk checkbox (of the bulk bar's form, by the `form` attribute, since the
 * row's own action forms cannot nest in it), the issue and its actions.
 */
export function IssueRow(props: { rows: RowsContext; issue: IssueJson }): Html {
  const { deps, session, projectId, back } = props.rows
  const { issue } = props
  const now = deps.now()
  const ignored = issue.status === 'ignored' ? ignoreSaid(issue.ignore_until) : null
  return (
    <tr data-row={issue.id}>
      <td class="pick">
        <input
          type="checkbox"
          form={BULK_FORM}
          name="issue"
          value={issue.id}
          aria-label={`Select: ${issue.title}`}
          checked={props.rows.selected?.has(issue.id) ? true : undefined}
          data-pick=""
        />
        {/* "Select all on this page" without JavaScript: the ids of the page. */}
        <input type="hidden" form={BULK_FORM} name="page_issue" value={issue.id} />
      </td>
      <td>
        <a href={`${deps.base}/projects/${projectId}/issues/${issue.id}`}>{issue.title}</a>
        <div class="muted">
          {issue.level}
          {issue.regression_count ? ` · regressed ${issue.regression_count}×` : ''}
          {issue.assignee ? ` · assigned to ${issue.assignee}` : ''}
          {ignored ? ` · ignored ${ignored}` : ''}
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
          target={{ issue, projectId, back, inPlace: true }}
        />
      </td>
    </tr>
  )
}

/** The rows of one inbox page. */
export function IssueRows(props: { rows: RowsContext; issues: readonly IssueJson[] }): Html {
  return (
    <>
      {props.issues.map((issue) => (
        <IssueRow rows={props.rows} issue={issue} />
      ))}
    </>
  )
}
