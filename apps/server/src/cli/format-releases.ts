// Human-readable release health: the table of `tis releases list` and the report of `show`.
import { type DeploymentJson, deploymentTable, type IssueJson, issueTable, table } from './format'

/** One release as `GET …/releases` and `GET …/releases/:version` answer it. */
export interface ReleaseJson {
  version: string
  environment: string | null
  first_seen_at: string
  last_seen_at: string
  sessions: { total: number; healthy: number; errored: number; crashed: number; abnormal: number }
  users: { total: number; crashed: number }
  crash_free_sessions: number | null
  crash_free_users: number | null
  adoption: number | null
}

/** The `release` of `GET …/releases/:version`. */
export interface ReleaseDetailJson extends ReleaseJson {
  since: string
  until: string
  interval_seconds: number
  series: { at: string; sessions: number; crashed: number; errored: number }[]
  new_issues: IssueJson[]
  deployments: DeploymentJson[]
}

/** A crash-free rate with two decimals, rounded down (one crash never reads `100.00%`). */
export function rate(ratio: number | null): string {
  if (ratio === null) return '-'
  return `${(Math.floor(ratio * 10_000 + 1e-6) / 100).toFixed(2)}%`
}

/** Adoption with one decimal. */
const share = (ratio: number | null) => (ratio === null ? '-' : `${(ratio * 100).toFixed(1)}%`)

/** Releases as a table, last seen first. */
export function releaseTable(releases: readonly ReleaseJson[]): string {
  return table(
    [
      'VERSION',
      'ENVIRONMENT',
      'CRASH-FREE SESSIONS',
      'CRASH-FREE USERS',
      'ADOPTION',
      'SESSIONS',
      'USERS',
      'LAST SEEN',
    ],
    releases.map((r) => [
      r.version,
      r.environment ?? 'all',
      rate(r.crash_free_sessions),
      rate(r.crash_free_users),
      share(r.adoption),
      String(r.sessions.total),
      String(r.users.total),
      r.last_seen_at,
    ]),
  )
}

/** One release's health as `key: value` lines, then its new issues and deployments. */
export function releaseDetails(r: ReleaseDetailJson): string {
  const s = r.sessions
  return [
    `version:              ${r.version}`,
    `environment:          ${r.environment ?? 'all'}`,
    `window:               ${r.since} to ${r.until}`,
    `crash-free sessions:  ${rate(r.crash_free_sessions)}`,
    `crash-free users:     ${rate(r.crash_free_users)} (${r.users.crashed} of ${r.users.total} users crashed)`,
    `adoption:             ${share(r.adoption)} (of the sessions of the last 24 hours)`,
    `sessions:             ${s.total} (healthy ${s.healthy}, errored ${s.errored}, crashed ${s.crashed}, abnormal ${s.abnormal})`,
    `first seen:           ${r.first_seen_at}`,
    `last seen:            ${r.last_seen_at}`,
    '',
    'New issues:',
    issueTable(r.new_issues),
    'Deployments:',
    deploymentTable(r.deployments),
  ].join('\n')
}
