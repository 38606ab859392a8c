/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
import type { Retention } from '@tis/schema'
import { formatBytes } from '../format'
import { CsrfField, type Html } from '../layout'
import { type SectionContext, SectionMessages, typedValue } from './settings-section-parts'

/** A project's retention and disk use, as `GET …/retention` answers it. */
export type RetentionJson = Retention

const period = (days: number) => (days === 0 ? 'forever' : `${days} day${days === 1 ? '' : 's'}`)

const KINDS = [
  ['events', 'Events'],
  ['spans', 'Spans'],
  ['check_ins', 'Check-ins'],
  ['artifacts', 'Source-map uploads'],
] as const

/**
 * The period in force and where it comes from, the server default and the approximate disk use
 * to everyone; the form for the project's own period to owners and administrators (the API
 * decides who may lengthen it).
 */
export function RetentionSection(props: {
  ctx: SectionContext
  retention: RetentionJson
  manages: boolean
}): Html {
  const { ctx, retention, manages } = props
  const own = retention.project_days
  return (
    <>
      <h2 id="retention">Retention</h2>
      <SectionMessages ctx={ctx} section="retention" />
      <table>
        <caption class="skip">Retention period</caption>
        <tbody>
          <tr>
            <th scope="row">Kept</th>
            <td id="retention-days">{period(retention.days)}</td>
            <td>{own === null ? <span class="muted">server default</span> : "project's own"}</td>
          </tr>
          <tr>
            <th scope="row">Server default</th>
            <td>{period(retention.default_days)}</td>
            <td />
          </tr>
        </tbody>
      </table>
      <table id="disk-use">
        <caption>Disk use (approximate)</caption>
        <thead>
          <tr>
            <th scope="col">Kind</th>
            <th scope="col" class="num">
              Rows
            </th>
            <th scope="col" class="num">
              Size
            </th>
          </tr>
        </thead>
        <tbody>
          {KINDS.map(([key, label]) => (
            <tr>
              <th scope="row">{label}</th>
              <td class="num">{retention.usage[key].rows}</td>
              <td class="num">{formatBytes(retention.usage[key].bytes)}</td>
            </tr>
          ))}
          <tr>
            <th scope="row">Total</th>
            <td />
            <td class="num">{formatBytes(retention.usage.total_bytes)}</td>
          </tr>
        </tbody>
      </table>
      {manages ? (
        <>
          <form
            class="filters"
            method="post"
            action={`${ctx.path}/retention#retention`}
            aria-label="Retention period"
          >
            <CsrfField csrf={ctx.csrf} />
            <label for="retention-days-input">
              Days to keep (0 keeps forever)
              <input
                id="retention-days-input"
                name="days"
                inputmode="numeric"
                pattern="[0-9]*"
                value={typedValue(ctx, 'retention', 'days', own === null ? '' : String(own))}
                placeholder="default"
              />
            </label>
            <button type="submit">Save retention</button>
            <button type="submit" name="default" value="1">
              Use the server default
            </button>
          </form>
          <p class="muted">
            Owners may shorten the period; only application administrators may lengthen it beyond
            the server default or keep data forever.
          </p>
        </>
      ) : (
        <p class="muted" id="retention-readonly">
          Only the project's owners and application administrators can change retention.
        </p>
      )}
    </>
  )
}
