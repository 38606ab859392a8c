/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
import type { Child } from 'hono/jsx'
import { relativeTime } from '../format'
import { CsrfField, type Html, Time } from '../layout'
import type { MemberJson } from '../types'

/** An API key as listed (never its token). */
export interface ApiKeyJson {
  id: string
  name: string
  created_at: string
  revoked_at: string | null
}
/** A live mobile ingest token as listed. */
export interface MobileTokenJson {
  id: string
  platform: string
  environment: string | null
  release: string | null
  created_at: string
  expires_at?: string
}
/** The effective rate limits and which are overrides. */
export interface RateLimitJson {
  requests: number
  period_seconds: number
  auth_failure_requests: number
  overrides: Record<'requests' | 'period_seconds' | 'auth_failure_requests', number | null>
}

/** The editable rate-limit fields and their labels. */
export const LIMIT_FIELDS = [
  ['requests', 'Requests per window'],
  ['period_seconds', 'Window length (seconds)'],
  ['auth_failure_requests', 'Authentication failures per minute'],
] as const

/** The settings sections: each heading's id, the anchor a form lands on. */
export type SectionId =
  | 'project'
  | 'api-keys'
  | 'project-members'
  | 'mobile-tokens'
  | 'rate-limits'
  | 'source'

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

/** The owner and members; the form to add one for those who may. */
export function MembersSection(props: {
  ctx: SectionContext
  members: readonly MemberJson[]
  manages: boolean
}): Html {
  const { ctx, members, manages } = props
  const path = ctx.path
  const when = (iso: string) => <When iso={iso} now={ctx.now} />
  return (
    <>
      <h2 id="project-members">Members</h2>
      <SectionMessages ctx={ctx} section="project-members" />
      <table>
        <caption class="skip">People who can see this project</caption>
        <thead>
          <tr>
            <th scope="col">Email</th>
            <th scope="col">Role</th>
            <th scope="col">Added</th>
          </tr>
        </thead>
        <tbody id="members">
          {members.map((p) => (
            <tr>
              <td>{p.email}</td>
              <td>{p.role}</td>
              <td>{when(p.added_at)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {manages ? (
        <>
          <p class="muted">Share the project with an existing user.</p>
          <form class="filters" method="post" action={`${path}/members#project-members`}>
            <CsrfField csrf={ctx.csrf} />
            <label for="member-email">
              Email
              <input
                id="member-email"
                name="email"
                type="email"
                required
                value={typedValue(ctx, 'project-members', 'email')}
              />
            </label>
            <button type="submit">Add member</button>
          </form>
        </>
      ) : (
        <p class="muted">Only the owner and administrators can add members.</p>
      )}
    </>
  )
}

/** The live mobile tokens, each with a revoke button. */
export function MobileTokensSection(props: {
  ctx: SectionContext
  tokens: readonly MobileTokenJson[]
}): Html {
  const { ctx } = props
  const mobile_tokens = props.tokens
  const when = (iso: string) => <When iso={iso} now={ctx.now} />
  const Form = (p: { action: string; label: string; danger?: boolean }) => (
    <PostButton ctx={ctx} section="mobile-tokens" {...p} />
  )
  return (
    <>
      <h2 id="mobile-tokens">Mobile tokens</h2>
      <SectionMessages ctx={ctx} section="mobile-tokens" />
      <p class="muted">
        Apps mint short-lived ingest tokens with an API key (
        <code>POST /api/v1/mobile_ingest_tokens</code>); the live ones are listed here.
      </p>
      {mobile_tokens.length ? (
        <table>
          <caption class="skip">Live mobile ingest tokens</caption>
          <thead>
            <tr>
              <th scope="col">Platform</th>
              <th scope="col">Environment</th>
              <th scope="col">Release</th>
              <th scope="col">Created</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {mobile_tokens.map((t) => (
              <tr>
                <td>{t.platform}</td>
                <td>{t.environment ?? ''}</td>
                <td>{t.release ?? ''}</td>
                <td>{when(t.created_at)}</td>
                <td>
                  <Form
                    action={`mobile-tokens/${t.id}/revoke`}
                    label={`Revoke the ${t.platform} token`}
                    danger
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p class="muted">No live mobile tokens.</p>
      )}
    </>
  )
}

/** The effective limits to everyone; the override form to administrators. */
export function RateLimitsSection(props: {
  ctx: SectionContext
  limits: RateLimitJson
  admin: boolean
}): Html {
  const { ctx, admin } = props
  const rate_limit = props.limits
  const path = ctx.path
  return (
    <>
      <h2 id="rate-limits">Rate limits</h2>
      <SectionMessages ctx={ctx} section="rate-limits" />
      <table>
        <caption class="skip">Effective rate limits</caption>
        <tbody>
          {LIMIT_FIELDS.map(([key, label]) => (
            <tr>
              <th scope="row">{label}</th>
              <td class="num">{rate_limit[key]}</td>
              <td>
                {rate_limit.overrides[key] === null ? (
                  <span class="muted">default</span>
                ) : (
                  'override'
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {admin ? (
        <>
          <form
            class="filters"
            method="post"
            action={`${path}/rate-limits#rate-limits`}
            aria-label="Rate-limit overrides"
          >
            <CsrfField csrf={ctx.csrf} />
            {LIMIT_FIELDS.map(([key, label]) => (
              <label for={`limit-${key}`}>
                {label}
                <input
                  id={`limit-${key}`}
                  name={key}
                  inputmode="numeric"
                  pattern="[0-9]*"
                  value={typedValue(
                    ctx,
                    'rate-limits',
                    key,
                    String(rate_limit.overrides[key] ?? ''),
                  )}
                  placeholder="default"
                />
              </label>
            ))}
            <button type="submit">Save rate limits</button>
          </form>
          <p class="muted">Leave a field empty to use the server's default.</p>
        </>
      ) : (
        <p class="muted" id="limits-readonly">
          Only application administrators can change rate limits.
        </p>
      )}
    </>
  )
}
