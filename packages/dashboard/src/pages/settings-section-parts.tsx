/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
import type { Child } from 'hono/jsx'
import { relativeTime } from '../format'
import { CsrfField, type Html, Time } from '../layout'

// What the settings page's sections share: their ids, the page's outcome, and small parts.

/** The settings sections: each heading's id, the anchor a form lands on. */
export type SectionId =
  | 'project'
  | 'api-keys'
  | 'project-members'
  | 'mobile-tokens'
  | 'rate-limits'
  | 'retention'
  | 'data-scrubbing'
  | 'source'
  | 'source-maps'
  | 'alert-channels'
  | 'alert-rules'
  | 'alert-deliveries'

/** What a settings page shows besides the project's data. */
export interface Outcome {
  readonly notice?: string
  readonly error?: string
  /** The section the notice or error is about: shown under its heading, not at the top. */
  readonly section?: SectionId
  /** The fields of the section's refused form as typed, shown again (never a token). */
  readonly typed?: Readonly<Record<string, string>>
  /** A newly created API key's token: shown once, never again. */
  readonly token?: string
  /** A newly created webhook channel's signing secret: shown once, never again. */
  readonly secret?: string
  readonly status?: number
}

/** What every section needs: the settings path, the session's CSRF token, the clock, the outcome. */
export interface SectionContext {
  readonly path: string
  readonly csrf: string
  readonly now: Date
  readonly outcome: Outcome
}

/** A field's value: as typed in this section's refused form, else the stored `fallback`. */
export function typedValue(
  ctx: SectionContext,
  section: SectionId,
  name: string,
  fallback = '',
): string {
  const typed = ctx.outcome.section === section ? ctx.outcome.typed : undefined
  return typed && name in typed ? (typed[name] ?? '') : fallback
}

/**
 * A checkbox's state: as typed in this section's refused form (a form sends only its checked
 * boxes, so one it left out was unchecked), else the stored `fallback`.
 */
export function typedChecked(
  ctx: SectionContext,
  section: SectionId,
  name: string,
  fallback: boolean,
): boolean {
  const typed = ctx.outcome.section === section ? ctx.outcome.typed : undefined
  return typed ? name in typed : fallback
}

/** The notice or error of one section, under its heading (where its form lands). */
export function SectionMessages(props: { ctx: SectionContext; section: SectionId }): Html {
  const { notice, error, section } = props.ctx.outcome
  const here = section === props.section
  return (
    <>
      {here && notice && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      {here && error && (
        <p class="alert" role="alert">
          {error}
        </p>
      )}
    </>
  )
}

/**
 * A labelled `<select>` whose label is its own text only (a `<label>` wrapping a select would take
 * in every option's text as well); `blank` adds an empty first choice with that text.
 */
export function SelectField(props: {
  id: string
  name: string
  label: string
  options: readonly string[]
  current: string
  blank?: string
}): Html {
  return (
    <span class="field">
      <label for={props.id}>{props.label}</label>
      <select id={props.id} name={props.name}>
        {props.blank !== undefined && <option value="">{props.blank}</option>}
        {props.options.map((o) => (
          <option selected={o === props.current}>{o}</option>
        ))}
      </select>
    </span>
  )
}

/** A `<time>` relative to the section's clock. */
export const When = ({ iso, now }: { iso: string; now: Date }) => (
  <Time iso={iso} text={relativeTime(iso, now)} />
)

/** A one-button POST form to `path/action#section` with the CSRF token. */
export function PostButton(props: {
  ctx: SectionContext
  action: string
  /** The section a refusal re-renders at. */
  section: SectionId
  label: string
  danger?: boolean
  children?: Child
}): Html {
  const { ctx, action, section } = props
  return (
    <form class="inline" method="post" action={`${ctx.path}/${action}#${section}`}>
      <CsrfField csrf={props.ctx.csrf} />
      {props.children}
      <button type="submit" class={props.danger ? 'danger' : undefined}>
        {props.label}
      </button>
    </form>
  )
}
