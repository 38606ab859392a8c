// Human-readable output of `tis event`: one event with its issue, deployment and related events.
import type { EventDetail, StoredDeployment, StoredEvent } from '@tis/schema'
import { eventTable } from './format'

/** An event as `GET …/events/:event_id` returns it (the list's fields and more). */
export type EventDetailEventJson = StoredEvent

/** A deployment with its links, as the event detail returns it. */
export type DeploymentLinksJson = StoredDeployment

/** `GET …/events/:event_id`. */
export type EventDetailJson = EventDetail

/** `label: value` when the value is set, else nothing. */
const field = (label: string, value: string | null | undefined, width = 14) =>
  value ? [`${`${label}:`.padEnd(width)}${value}`] : []
/** A deployment detail line, indented under `deployment:`. */
const link = (label: string, value: string | null | undefined) => field(`  ${label}`, value, 16)

function deploymentLines(d: DeploymentLinksJson | null): string[] {
  if (!d) return ['deployment:   -']
  return [
    `deployment:   ${d.release} to ${d.environment} at ${d.deployed_at}`,
    ...link('repository', d.repository),
    ...link('commit', d.commit_sha),
    ...link('branch', d.branch),
    ...link('tag', d.release_tag),
    ...link('pull request', d.pull_request_url),
    ...link('release', d.release_url),
    ...link('compare', d.compare_url),
    ...link('workflow run', d.workflow_run_url),
    ...link('deployment', d.deployment_url),
  ]
}

/** One event as `key: value` lines, then its issue, deployment and related events. */
export function eventDetails(detail: EventDetailJson): string {
  const { event: e, issue } = detail
  return [
    `id:           ${e.id}`,
    `type:         ${e.event_type}`,
    `occurred:     ${e.occurred_at}`,
    ...field('level', e.level),
    ...field('message', e.message),
    ...field('environment', e.environment),
    ...field('release', e.release),
    ...field('fingerprint', e.fingerprint),
    ...field('trace', e.trace_id),
    ...field('request', e.request_id),
    ...field('session', e.session_id),
    issue
      ? `issue:        ${issue.id} ${issue.status}, count ${issue.count}: ${issue.title.split(/\r?\n/)[0]}`
      : 'issue:        -',
    ...deploymentLines(detail.deployment),
    '',
    'related events:',
    eventTable(detail.related),
  ].join('\n')
}
