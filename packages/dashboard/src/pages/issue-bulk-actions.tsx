/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */

import type { EngineResponse } from '@tis/ingest'
import type { IssueBulkAnswer, IssueMergeAnswer, MemberList } from '@tis/schema'
import type { Deps, Session } from '../context'
import type { Html } from '../layout'
import { IgnoreFields, ignoreUpdate, type Typed } from './issue-ignore'

// The buttons of the inbox's bulk bar, one entry each: what the button says, the fields it
// takes, the engine operation it calls and the notice it ends with.

/** The id of the bulk bar's form, which the rows' checkboxes name in their `form` attribute. */
export const BULK_FORM = 'bulk'

/** The issues a bulk action is for: `issues` of `PATCH …/issues` (docs/issues.md#bulk-changes). */
export type BulkIssues = { readonly ids: readonly string[] } | { readonly query: string }

/** What an action's engine call is given. */
export interface BulkRun {
  readonly session: Session
  readonly deps: Deps
  readonly projectId: string
  readonly issues: BulkIssues
  /** The bar's fields as submitted. */
  readonly typed: Typed
}

/** What the fields of an action are rendered with. */
export interface BulkFieldsProps {
  /** What was submitted when the form was refused, else empty. */
  readonly typed: Typed
  /** The project's owner and members (the assignee choices). */
  readonly members: MemberList['members']
}

/** How many issues an action named and changed, for its notice. */
export interface BulkCounts {
  readonly matched: number
  readonly changed: number
}

/** One action of the bulk bar. */
export interface BulkAction {
  /** The submit button's `action` value, also the `?done=` of its notice. */
  readonly value: string
  /** The button's text. */
  readonly label: string
  /** Asks the engine; a 400 or 422 answer is shown in the bar. */
  readonly run: (run: BulkRun) => Promise<EngineResponse>
  /** The counts of a 2xx answer's body. @default the `matched` and `changed` of `PATCH …/issues` */
  readonly counts?: (body: unknown) => BulkCounts
  /** The notice after success for `n` changed issues ("3 issues resolved"). */
  readonly done: (n: number) => string
  /** Fields the action takes beside its button (the assignee select). @default none */
  readonly Fields?: (props: BulkFieldsProps) => Html
  /** Its fields and button in a disclosure (`<details>`), as the ignore menu. @default false */
  readonly menu?: boolean
  /** Whether it also takes "every issue matching this search" (`{query}`). @default true */
  readonly byQuery?: boolean
}

/** "1 issue", "3 issues". */
export const issuesSaid = (n: number) => `${n.toLocaleString('en-US')} issue${n === 1 ? '' : 's'}`

/** An action asking `PATCH …/issues` for the `update` its fields make. */
const patch =
  (update: (typed: Typed) => Record<string, unknown>) =>
  (r: BulkRun): Promise<EngineResponse> =>
    r.session.call(r.deps.engine.reads.updateIssues, {
      params: { id: r.projectId },
      body: { issues: r.issues, update: update(r.typed) },
    })

function AssigneeFields(props: BulkFieldsProps): Html {
  return (
    <>
      <label for="bulk-assignee">Assign to</label>{' '}
      <select id="bulk-assignee" name="assignee">
        {props.members.map((m) => (
          <option value={m.email} selected={m.email === props.typed['assignee']}>
            {m.email}
          </option>
        ))}
      </select>{' '}
    </>
  )
}

/** The bulk bar's actions, in the order of its buttons. */
export const BULK_ACTIONS: readonly BulkAction[] = [
  {
    value: 'resolve',
    label: 'Resolve',
    run: patch(() => ({ status: 'resolved' })),
    done: (n) => `${issuesSaid(n)} resolved`,
  },
  {
    value: 'reopen',
    label: 'Reopen',
    run: patch(() => ({ status: 'unresolved' })),
    done: (n) => `${issuesSaid(n)} reopened`,
  },
  {
    value: 'ignore',
    label: 'Ignore',
    menu: true,
    Fields: (props) => <IgnoreFields prefix="bulk-ignore" typed={props.typed} />,
    run: patch(ignoreUpdate),
    done: (n) => `${issuesSaid(n)} ignored`,
  },
  {
    value: 'assign',
    label: 'Assign',
    Fields: AssigneeFields,
    run: patch((typed) => ({ assignee: (typed['assignee'] ?? '').trim() })),
    done: (n) => `${issuesSaid(n)} assigned`,
  },
  {
    value: 'unassign',
    label: 'Unassign',
    run: patch(() => ({ assignee: null })),
    done: (n) => `${issuesSaid(n)} unassigned`,
  },
  {
    // The selected issues become one (`POST …/issues/merge`, docs/issues.md#merging-issues):
    // the one with the most events keeps its id.
    value: 'merge',
    label: 'Merge',
    byQuery: false,
    run: (r) =>
      r.session.call(r.deps.engine.reads.mergeIssues, {
        params: { id: r.projectId },
        body: { merge: { issue_ids: 'ids' in r.issues ? r.issues.ids : [] } },
      }),
    counts: (body) => {
      const { merged } = body as IssueMergeAnswer
      const n = merged.length === 0 ? 0 : merged.length + 1
      return { matched: n, changed: n }
    },
    done: (n) => `${issuesSaid(n)} merged into one`,
  },
]

/** The counts of a `PATCH …/issues` answer. */
export const bulkCounts = (body: unknown): BulkCounts => {
  const { matched, changed } = body as IssueBulkAnswer
  return { matched, changed }
}

/** The notice of `?done=<action>&changed=N&matched=M` after a bulk action, if any. */
export function bulkNotice(query: (name: string) => string | undefined): string | null {
  const action = BULK_ACTIONS.find((a) => a.value === query('done'))
  const changed = Number(query('changed'))
  const matched = Number(query('matched') ?? changed)
  if (!action || !Number.isSafeInteger(changed) || changed < 0) return null
  const same = Number.isSafeInteger(matched) ? matched - changed : 0
  return same > 0
    ? `${action.done(changed)}; ${issuesSaid(same)} already ${same === 1 ? 'was' : 'were'}.`
    : `${action.done(changed)}.`
}
