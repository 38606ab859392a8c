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

/** What every section needs: the settings path, the session's CSRF token and the clock. */
export interface SectionContext {
  readonly path: string
  readonly csrf: string
  readonly now: Date
}

/** A `<time>` relative to the section's clock. */
export const When = ({ iso, now }: { iso: string; now: Date }) => (
  <Time iso={iso} text={relativeTime(iso, now)} />
)

/** A one-button POST form to `path/action` with the CSRF token. */
export function PostButton(props: {
  ctx: SectionContext
  action: string
  label: string
  danger?: boolean
  children?: Child
}): Html {
  return (
    <form class="inline" method="post" action={`${props.ctx.path}/${props.action}`}>
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
      <h2>Members</h2>
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
          <form class="filters" method="post" action={`${path}/members`}>
            <CsrfField csrf={ctx.csrf} />
            <label for="member-email">
              Email
              <input id="member-email" name="email" type="email" required />
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
    <PostButton ctx={ctx} {...p} />
  )
  return (
    <>
      <h2>Mobile tokens</h2>
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
      <h2>Rate limits</h2>
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
            action={`${path}/rate-limits`}
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
                  value={String(rate_limit.overrides[key] ?? '')}
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
