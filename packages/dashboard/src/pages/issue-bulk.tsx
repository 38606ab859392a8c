/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */

import { MAX_BULK_ISSUES, type MemberList } from '@tis/schema'
import type { DashboardApp, DashboardContext, Deps, Session } from '../context'
import { errorMessages, ok } from '../engine-client'
import { CsrfField, type Html } from '../layout'
import {
  BULK_ACTIONS,
  BULK_FORM,
  type BulkAction,
  type BulkIssues,
  bulkCounts,
  issuesSaid,
} from './issue-bulk-actions'
import { filtersAsSearch, inboxQuery } from './issue-filters'
import type { Typed } from './issue-ignore'
import { typedFields } from './settings-done'

// The inbox's bulk bar (docs/dashboard.md#bulk-actions): the rows' checkboxes, or every issue
// the search finds, changed by one engine call (PATCH …/issues); back to the inbox with a
// notice, or the inbox again with the engine's refusal in the bar.

/** The query keys of a bulk action's notice, left out of the inbox's own query. */
export const NOTICE_KEYS = ['done', 'changed', 'matched'] as const

/** A bulk form the dashboard or the engine refused: its messages and what was submitted. */
export interface BulkRefusal {
  readonly errors: readonly string[]
  readonly typed: Typed
  /** The checked issues, checked again. */
  readonly selected: ReadonlySet<string>
}

/** What the bar shows besides its actions. */
export interface BulkBarProps {
  readonly session: Session
  /** The form's action: `…/issues/bulk` with the inbox's query. */
  readonly action: string
  readonly members: MemberList['members']
  /** The inbox's filters as one search, when they can be said as one. */
  readonly search: string | null
  /** The issues of the search when this page holds them all, else `null`. */
  readonly total: number | null
  readonly onPage: number
  readonly refused?: BulkRefusal | undefined
  /** Hidden while the page has no issues (the live inbox shows it when one comes). */
  readonly hidden: boolean
}

function ActionControl(props: { action: BulkAction; bar: BulkBarProps }): Html {
  const { action, bar } = props
  const typed = bar.refused?.typed ?? {}
  const fields = action.Fields ? <action.Fields typed={typed} members={bar.members} /> : null
  const id = `bulk-${action.value}`
  const button = (
    <button type="submit" name="action" value={action.value} id={id}>
      {action.label}
    </button>
  )
  if (!action.menu) {
    return (
      <span class="bulk-action">
        {fields}
        {button}
      </span>
    )
  }
  return (
    <details class="menu" open={typed['action'] === action.value ? true : undefined}>
      <summary>{`${action.label}…`}</summary>
      <div data-enter-submits={id}>
        {fields}
        {button}
      </div>
    </details>
  )
}

/** The bulk bar: a form of its own, which the rows' checkboxes belong to by their `form`. */
export function BulkBar(props: BulkBarProps): Html {
  const { refused, search } = props
  const scope = refused?.typed['scope'] ?? 'selected'
  const cap = MAX_BULK_ISSUES.toLocaleString('en-US')
  const every =
    props.total === null
      ? `Every issue matching this search (more than ${props.onPage}; at most ${cap} at once)`
      : props.total === 1
        ? 'The 1 issue matching this search'
        : `All ${issuesSaid(props.total)} matching this search`
  return (
    <form
      id={BULK_FORM}
      class="bulk"
      method="post"
      action={props.action}
      aria-label="Change several issues"
      hidden={props.hidden ? true : undefined}
      data-bulk=""
    >
      <CsrfField csrf={props.session.csrf} />
      {/* Enter in a field submits with the first button: this one, which changes nothing. */}
      <button type="submit" name="action" value="" hidden>
        Choose an action
      </button>
      {refused && (
        <p class="alert" role="alert" id="bulk-error">
          {refused.errors.join('; ')}
        </p>
      )}
      {search === null ? (
        <p class="muted">
          Select issues with the boxes of the table, then choose an action.{' '}
          <span data-bulk-count="" aria-live="polite"></span>
        </p>
      ) : (
        <fieldset class="scope">
          <legend>Apply to</legend>
          <input
            type="radio"
            id="bulk-scope-selected"
            name="scope"
            value="selected"
            checked={scope !== 'query'}
          />{' '}
          <label for="bulk-scope-selected">The issues selected below</label>{' '}
          <span data-bulk-count="" aria-live="polite"></span>{' '}
          <input
            type="radio"
            id="bulk-scope-query"
            name="scope"
            value="query"
            checked={scope === 'query'}
          />{' '}
          <label for="bulk-scope-query">{every}</label>
        </fieldset>
      )}
      <div class="bulk-actions">
        {BULK_ACTIONS.map((action) => (
          <ActionControl action={action} bar={props} />
        ))}
      </div>
    </form>
  )
}

/** The values of a repeated form field. */
const values = (value: unknown): string[] =>
  (Array.isArray(value) ? value : value === undefined ? [] : [value]).filter(
    (v): v is string => typeof v === 'string',
  )

/** Renders the inbox of the request with a refused bulk form. */
export type RenderRefusedBulk = (
  c: DashboardContext,
  refused: BulkRefusal,
  status: number,
) => Promise<Response>

/**
 * `POST /projects/:id/issues/bulk?<the inbox's query>`: one bulk action for the checked issues
 * (all of the page with "select all") or for every issue the inbox's filters find.
 */
export function registerIssueBulk(app: DashboardApp, deps: Deps, render: RenderRefusedBulk): void {
  app.post('/projects/:id/issues/bulk', async (c) => {
    const form = await c.req.parseBody({ all: true })
    const typed = typedFields(form)
    const projectId = c.req.param('id')
    const ids = values(typed['all_on_page'] ? form['page_issue'] : form['issue'])
    const refuse = (status: number, errors: readonly string[]) =>
      render(c, { errors, typed, selected: new Set(ids) }, status)
    const action = BULK_ACTIONS.find((a) => a.value === typed['action'])
    if (!action) {
      const labels = BULK_ACTIONS.map((a) => a.label).join(', ')
      return refuse(422, [`Choose an action for the selected issues: ${labels}.`])
    }
    let issues: BulkIssues
    if (typed['scope'] === 'query') {
      const search = filtersAsSearch(inboxQuery(c))
      if (search === null || action.byQuery === false) {
        return refuse(422, [`${action.label} takes the issues selected with the boxes here.`])
      }
      issues = { query: search }
    } else if (ids.length === 0) {
      return refuse(422, ['Select the issues to change with the boxes of the table first.'])
    } else issues = { ids }
    const session = c.get('session')
    const response = await action.run({ session, deps, projectId, issues, typed })
    if (response.status === 400 || response.status === 422) {
      return refuse(response.status, errorMessages(response))
    }
    const { matched, changed } = (action.counts ?? bulkCounts)(ok(response))
    const back = new URL(c.req.url).searchParams
    for (const key of NOTICE_KEYS) back.delete(key)
    back.set('done', action.value)
    back.set('changed', String(changed))
    back.set('matched', String(matched))
    return c.redirect(`${deps.base}/projects/${projectId}/issues?${back}`, 303)
  })
}
