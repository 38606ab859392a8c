// Human-readable output of the CLI. `--json` bypasses all of this and prints the API's JSON.
import type {
  ApiKey,
  Issue,
  Member,
  MobileToken,
  Monitor,
  Project,
  RateLimits,
  StoredDeployment,
  StoredEvent,
} from '@tis/schema'

/** A project as the API returns it. */
export type ProjectJson = Project

/** An API key as the API returns it. */
export type ApiKeyJson = ApiKey

/** Left-aligned columns with a header row; `(none)` when there are no rows. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  if (rows.length === 0) return '(none)\n'
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)))
  const line = (cells: readonly string[]) =>
    cells.map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join('  ')
  return `${[header, ...rows].map(line).join('\n')}\n`
}

/** One project as `key: value` lines. */
export function projectDetails(project: ProjectJson): string {
  return [
    `id:        ${project.id}`,
    `name:      ${project.name}`,
    `kind:      ${project.integration_kind}`,
    `status:    ${project.status}`,
    `created:   ${project.created_at}`,
    ...(project.archived_at ? [`archived:  ${project.archived_at}`] : []),
  ]
    .join('\n')
    .concat('\n')
}

/** Projects as a table. */
export function projectTable(projects: readonly ProjectJson[]): string {
  return table(
    ['ID', 'NAME', 'KIND', 'STATUS', 'CREATED'],
    projects.map((p) => [p.id, p.name, p.integration_kind, p.status, p.created_at]),
  )
}

/** API keys as a table (tokens are never listed: they are shown once, at creation). */
export function keyTable(keys: readonly ApiKeyJson[]): string {
  return table(
    ['ID', 'NAME', 'CREATED', 'REVOKED'],
    keys.map((k) => [k.id, k.name, k.created_at, k.revoked_at ?? '-']),
  )
}

/** A project's owner or member as the API lists it. */
export type MemberJson = Member

/** Members as a table, the owner first. */
export function memberTable(members: readonly MemberJson[]): string {
  return table(
    ['EMAIL', 'ROLE', 'ADDED', 'USER ID'],
    members.map((m) => [m.email, m.role, m.added_at, m.user_id]),
  )
}

/** A mobile ingest token as the API lists it. */
export type MobileTokenJson = MobileToken

/** Live mobile tokens as a table. */
export function mobileTokenTable(tokens: readonly MobileTokenJson[]): string {
  return table(
    ['id', 'platform', 'service', 'environment', 'release', 'expires_at', 'event types'],
    tokens.map((t) => [
      t.id,
      t.platform,
      t.service,
      t.environment,
      t.release ?? '',
      t.expires_at,
      t.allowed_event_types.join(','),
    ]),
  )
}

/** A project's rate limits as the API returns them. */
export type RateLimitJson = RateLimits

/** Effective limits, each marked as an override or the server default. */
export function limitsDetails(limits: RateLimitJson): string {
  const mark = (field: keyof RateLimitJson['overrides']) =>
    limits.overrides[field] === null ? '(server default)' : '(project override)'
  return [
    `requests:              ${limits.requests} per window ${mark('requests')}`,
    `period_seconds:        ${limits.period_seconds} ${mark('period_seconds')}`,
    `auth_failure_requests: ${limits.auth_failure_requests} per minute per IP ${mark('auth_failure_requests')}`,
    '',
  ].join('\n')
}

/** An issue as the read API returns it. */
export type IssueJson = Issue

/** An event as the read API returns it. */
export type EventJson = StoredEvent

/** The first line of a text, cut to `max` characters. */
function short(text: string | null, max = 72): string {
  const line = (text ?? '').split(/\r?\n/)[0] ?? ''
  return line.length > max ? `${line.slice(0, max - 1)}…` : line
}

/** Issues as a table. */
export function issueTable(issues: readonly IssueJson[]): string {
  return table(
    ['ID', 'STATUS', 'COUNT', 'USERS', 'LAST SEEN', 'LEVEL', 'TITLE'],
    issues.map((i) => [
      i.id,
      i.status,
      String(i.count),
      String(i.users),
      i.last_seen_at ?? '-',
      i.level,
      short(i.title),
    ]),
  )
}

/** One issue as `key: value` lines. */
export function issueDetails(issue: IssueJson): string {
  return [
    `id:           ${issue.id}`,
    `title:        ${issue.title}`,
    `status:       ${issue.status}`,
    `level:        ${issue.level}`,
    `count:        ${issue.count}`,
    `users:        ${issue.users}`,
    `assignee:     ${issue.assignee ?? 'nobody'}`,
    `first seen:   ${issue.first_seen_at} (${issue.first_release ?? 'no release'})`,
    `last seen:    ${issue.last_seen_at} (${issue.last_release ?? 'no release'})`,
    ...(issue.fingerprint ? [`fingerprint:  ${issue.fingerprint}`] : []),
    ...(issue.regression_count > 0
      ? [
          `regressions:  ${issue.regression_count} (last in ${issue.regressed_in_release ?? 'no release'})`,
        ]
      : []),
    ...(issue.events_expired
      ? ['events:       all past the retention period (deleted)']
      : issue.latest_event_id
        ? [`latest event: ${issue.latest_event_id}`]
        : []),
  ]
    .join('\n')
    .concat('\n')
}

/** Events as a table. */
export function eventTable(events: readonly EventJson[]): string {
  return table(
    ['ID', 'OCCURRED', 'TYPE', 'LEVEL', 'MESSAGE'],
    events.map((e) => [e.id, e.occurred_at ?? '-', e.event_type, e.level ?? '-', short(e.message)]),
  )
}

/** A monitor as the read API returns it. */
export type MonitorJson = Monitor

/** Monitors as a table. */
export function monitorTable(monitors: readonly MonitorJson[]): string {
  return table(
    ['SLUG', 'ENVIRONMENT', 'STATUS', 'LAST', 'LAST CHECK-IN', 'INTERVAL', 'NEXT EXPECTED'],
    monitors.map((m) => [
      m.slug,
      m.environment,
      m.status,
      m.last_status,
      m.last_check_in_at ?? '-',
      `${m.expected_interval_seconds}s`,
      m.next_expected_at ?? '-',
    ]),
  )
}

/** A deployment as the read API returns it. */
export type DeploymentJson = StoredDeployment

/** Deployments as a table. */
export function deploymentTable(deployments: readonly DeploymentJson[]): string {
  return table(
    ['DEPLOYED', 'ENVIRONMENT', 'RELEASE', 'COMMIT', 'BRANCH', 'REPOSITORY', 'PULL REQUEST'],
    deployments.map((d) => [
      d.deployed_at ?? '-',
      d.environment,
      d.release,
      d.commit_sha.slice(0, 12),
      d.branch ?? '-',
      d.repository,
      d.pull_request_url ?? '-',
    ]),
  )
}
