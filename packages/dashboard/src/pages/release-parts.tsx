/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */

import type { StoredDeployment as DeploymentJson, Issue as IssueJson } from '@tis/schema'
import type { DashboardContext } from '../context'
import { formatRate } from '../format'
import type { Html } from '../layout'

/** One release as `GET …/releases` and `GET …/releases/:version` answer it. */
export interface ReleaseJson {
  readonly version: string
  readonly environment: string | null
  readonly first_seen_at: string
  readonly last_seen_at: string
  readonly sessions: {
    readonly total: number
    readonly healthy: number
    readonly errored: number
    readonly crashed: number
    readonly abnormal: number
  }
  readonly users: { readonly total: number; readonly crashed: number }
  readonly crash_free_sessions: number | null
  readonly crash_free_users: number | null
  readonly adoption: number | null
}

/** A page of `GET …/releases`. */
export interface ReleasePageJson {
  readonly releases: readonly ReleaseJson[]
  readonly next_cursor: string | null
}

/** One bucket of a release's series. */
export interface ReleaseBucketJson {
  readonly at: string
  readonly sessions: number
  readonly crashed: number
  readonly errored: number
}

/** The `release` of `GET …/releases/:version`. */
export interface ReleaseDetailJson extends ReleaseJson {
  readonly since: string
  readonly until: string
  readonly interval_seconds: number
  readonly series: readonly ReleaseBucketJson[]
  readonly new_issues: readonly IssueJson[]
  readonly deployments: readonly DeploymentJson[]
}

/** The windows the release pages offer, as `?since=` shorthands, and their days. */
export const RELEASE_WINDOWS = [
  ['24h', 1],
  ['7d', 7],
  ['30d', 30],
  ['90d', 90],
] as const

/** The engine's window when `since` is absent. */
const DEFAULT_WINDOW = '30d'

/** The release pages' filters from the query string: as shown, and as sent to the engine. */
export function releaseFilters(c: DashboardContext, now: Date) {
  const environment = c.req.query('environment') || undefined
  const since = c.req.query('since') || undefined
  const window = RELEASE_WINDOWS.find(([name]) => name === since)
  return {
    /** What the links and the form keep. */
    shown: { environment, since },
    /** The window's name, or the time given (`?since=` also takes an RFC 3339 time). */
    window: since ?? DEFAULT_WINDOW,
    engine: {
      environment,
      // A shorthand becomes a time; any other value goes as given (the engine answers 422).
      since: window ? new Date(now.getTime() - window[1] * 86_400_000).toISOString() : since,
    },
  }
}

/** The environment and window form of both release pages. */
export function ReleaseFiltersForm(props: {
  action: string
  environments: readonly string[]
  environment: string | undefined
  window: string
}): Html {
  const { environment, window } = props
  const environments = [...new Set([...props.environments, ...(environment ? [environment] : [])])]
  const custom = !RELEASE_WINDOWS.some(([name]) => name === window)
  return (
    <search aria-label="Filter releases">
      <form class="filters" method="get" action={props.action}>
        <label for="f-environment">
          Environment
          <select id="f-environment" name="environment">
            <option value="" selected={!environment}>
              All environments
            </option>
            {environments.sort().map((e) => (
              <option value={e} selected={e === environment}>
                {e}
              </option>
            ))}
          </select>
        </label>
        <label for="f-since">
          Window
          <select id="f-since" name="since">
            {RELEASE_WINDOWS.map(([name]) => (
              <option value={name} selected={name === window}>
                {`last ${name}`}
              </option>
            ))}
            {custom && (
              <option value={window} selected>
                {`since ${window}`}
              </option>
            )}
          </select>
        </label>
        <button type="submit">Show</button>
      </form>
    </search>
  )
}

/** A crash-free rate; below 99% marked as a warning and below 95% as bad (the text says it). */
export function Rate({ value }: { value: number | null }): Html {
  const text = formatRate(value)
  if (value === null || value >= 0.99) return <span>{text}</span>
  const bad = value < 0.95
  return (
    <span class={`rate ${bad ? 's-error' : 's-warn'}`} title={bad ? 'below 95%' : 'below 99%'}>
      {text}
    </span>
  )
}
