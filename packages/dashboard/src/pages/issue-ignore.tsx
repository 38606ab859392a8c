/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */

import type { Issue as IssueJson } from '@tis/schema'
import type { Child } from 'hono/jsx'
import type { DashboardApp, DashboardContext, Deps, Session } from '../context'
import { errorMessages, ok } from '../engine-client'
import { CsrfField, type Html } from '../layout'
import { safeReturn } from '../render'
import { typedFields } from './settings-done'

// The ignore menu (docs/issues.md#ignore-until): forever, or until a count of events, events
// within a window, more users or a time. The form sends the choice as typed; the engine decides
// what is valid and its 422 is shown beside the menu.

/** The windows offered for "N events within …", in seconds. */
const WINDOWS: readonly (readonly [number, string])[] = [
  [60, 'a minute'],
  [3600, 'an hour'],
  [86_400, 'a day'],
  [604_800, 'a week'],
]

/** What was typed into a refused form (`typedFields`), to fill it in again. */
export type Typed = Readonly<Record<string, string>>

// Whole numbers are sent as numbers and anything else as typed, so the engine's 422 names it.
const asTyped = (value: string | undefined) =>
  value !== undefined && /^\d{1,15}$/.test(value.trim()) ? Number(value.trim()) : (value ?? '')

/** A `datetime-local` value (read as UTC) as an RFC 3339 time; anything else as typed. */
function utcTime(value: string | undefined): string {
  const text = (value ?? '').trim()
  const local = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2})(:\d{2}(\.\d+)?)?$/.exec(text)
  return local ? `${local[1]}${local[2] ?? ':00'}Z` : text
}

/**
 * The status and `ignore_until` of the `update` (or `issue`) body the ignore choice asks for:
 * `ignore=forever` (or none) ignores for good.
 */
export function ignoreUpdate(typed: Typed): { status: 'ignored'; ignore_until?: unknown } {
  const choice = typed['ignore'] ?? 'forever'
  switch (choice) {
    case 'forever':
      return { status: 'ignored' }
    case 'count':
      return { status: 'ignored', ignore_until: { count: asTyped(typed['count']) } }
    case 'window':
      return {
        status: 'ignored',
        ignore_until: {
          count: asTyped(typed['window_count']),
          window_seconds: asTyped(typed['window']),
        },
      }
    case 'users':
      return { status: 'ignored', ignore_until: { users: asTyped(typed['users']) } }
    case 'until':
      return { status: 'ignored', ignore_until: { until: utcTime(typed['until']) } }
    default:
      // Not a choice of the menu: the engine's 422 says what ignore_until takes.
      return { status: 'ignored', ignore_until: choice }
  }
}

const windowSaid = (seconds: number) =>
  WINDOWS.find(([s]) => s === seconds)?.[1] ?? `${seconds.toLocaleString('en-US')} seconds`

/** An ignore condition in words ("until 100 more events"); `null` when ignored for good. */
export function ignoreSaid(condition: IssueJson['ignore_until']): string | null {
  if (!condition) return null
  if ('users' in condition) return `until ${condition.users.toLocaleString('en-US')} more users`
  if ('until' in condition) return `until ${condition.until}`
  const count = condition.count.toLocaleString('en-US')
  return condition.window_seconds === undefined
    ? `until ${count} more events`
    : `until ${count} events within ${windowSaid(condition.window_seconds)}`
}

/** One radio of the menu with its label and the fields it needs. */
function Choice(props: {
  prefix: string
  value: string
  label: string
  checked: boolean
  children?: Child
}): Html {
  const id = `${props.prefix}-${props.value}`
  return (
    <div class="choice">
      <input type="radio" id={id} name="ignore" value={props.value} checked={props.checked} />{' '}
      <label for={id}>{props.label}</label>
      {props.children ? <> {props.children}</> : null}
    </div>
  )
}

/** A number field of a choice, named for screen readers by what it counts. */
const Count = (props: { name: string; label: string; typed: Typed }) => (
  <input
    type="number"
    class="n"
    name={props.name}
    min="1"
    step="1"
    inputmode="numeric"
    aria-label={props.label}
    value={props.typed[props.name] ?? ''}
  />
)

/** The ignore choices (a fieldset of radios); `prefix` keeps the ids unique on the page. */
export function IgnoreFields(props: { prefix: string; typed: Typed }): Html {
  const { prefix, typed } = props
  const choice = typed['ignore'] ?? 'forever'
  const window = typed['window'] ?? '3600'
  return (
    <fieldset class="ignore-choices">
      <legend>Ignore</legend>
      <Choice prefix={prefix} value="forever" label="Forever" checked={choice === 'forever'} />
      <Choice
        prefix={prefix}
        value="count"
        label="Until N more events"
        checked={choice === 'count'}
      >
        <Count name="count" label="N more events" typed={typed} />
      </Choice>
      <Choice
        prefix={prefix}
        value="window"
        label="Until N events within a time"
        checked={choice === 'window'}
      >
        <Count name="window_count" label="N events" typed={typed} />{' '}
        <select name="window" aria-label="Within">
          {WINDOWS.map(([seconds, said]) => (
            <option value={String(seconds)} selected={String(seconds) === window}>
              {`within ${said}`}
            </option>
          ))}
        </select>
      </Choice>
      <Choice prefix={prefix} value="users" label="Until N more users" checked={choice === 'users'}>
        <Count name="users" label="N more users" typed={typed} />
      </Choice>
      <Choice
        prefix={prefix}
        value="until"
        label="Until a date and time (UTC)"
        checked={choice === 'until'}
      >
        <input
          type="datetime-local"
          name="until"
          aria-label="Date and time (UTC)"
          value={typed['until'] ?? ''}
        />
      </Choice>
    </fieldset>
  )
}

/** What a refused ignore form shows again: the engine's messages and what was typed. */
export interface IgnoreRefusal {
  readonly errors: readonly string[]
  readonly typed: Typed
}

/** The issue page's "Ignore" menu: a disclosure with the choices, open when refused. */
export function IgnoreMenu(props: {
  deps: Deps
  session: Session
  issue: IssueJson
  projectId: string
  back: string
  refused?: IgnoreRefusal | undefined
}): Html {
  const { issue, refused } = props
  const action = `${props.deps.base}/projects/${props.projectId}/issues/${issue.id}/ignore`
  return (
    <details class="menu" id="ignore-menu" open={refused ? true : undefined}>
      <summary>Ignore…</summary>
      <form method="post" action={action} data-enter-submits="ignore-submit">
        <CsrfField csrf={props.session.csrf} />
        <input type="hidden" name="return_to" value={props.back} />
        {refused && (
          <p class="alert" role="alert" id="ignore-error">
            {refused.errors.join('; ')}
          </p>
        )}
        <IgnoreFields prefix="ignore" typed={refused?.typed ?? {}} />
        <button type="submit" id="ignore-submit">
          Ignore
        </button>
      </form>
    </details>
  )
}

/** Renders the issue page of the request with a refused ignore form (status 422 and the like). */
export type RenderRefusedIgnore = (
  c: DashboardContext,
  refused: IgnoreRefusal,
  status: number,
) => Promise<Response>

/**
 * `POST /projects/:id/issues/:issue_id/ignore`: ignores with the chosen condition and goes back;
 * the engine's 422 re-renders the issue page with the message and what was typed.
 */
export function registerIssueIgnore(
  app: DashboardApp,
  deps: Deps,
  render: RenderRefusedIgnore,
): void {
  app.post('/projects/:id/issues/:issue_id/ignore', async (c) => {
    const typed = typedFields(await c.req.parseBody())
    const params = { id: c.req.param('id'), issue_id: c.req.param('issue_id') }
    const response = await c.get('session').call(deps.engine.reads.updateIssue, {
      params,
      body: { issue: ignoreUpdate(typed) },
    })
    if (response.status === 422) return render(c, { errors: errorMessages(response), typed }, 422)
    // Any other refusal (the issue's 404) is the error page, as for every issue form.
    ok(response)
    const fallback = `${deps.base}/projects/${params.id}/issues/${params.issue_id}`
    return c.redirect(safeReturn(typed['return_to'], deps, fallback), 303)
  })
}
