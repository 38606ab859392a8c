/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
import { CsrfField, type Html } from '../layout'
import { type SectionContext, SectionMessages, typedValue } from './settings-section-parts'

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
