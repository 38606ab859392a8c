import type { Command } from './command'
import {
  type DeploymentJson,
  deploymentTable,
  type EventJson,
  eventTable,
  type IssueJson,
  issueDetails,
  issueTable,
  type MonitorJson,
  monitorTable,
} from './format'
import { type EventDetailJson, eventDetails } from './format-event'
import { id, more, queryString } from './request-parts'

/** The query flags of `issues` and `events`: `--trace-id` is sent as `trace_id`, and so on. */
export const ISSUE_FLAGS = [
  'query',
  'sort',
  'status',
  'environment',
  'release',
  'q',
  'limit',
  'cursor',
] as const
/** The query flags of `events`. */
export const EVENT_FLAGS = [
  'query',
  'event-type',
  'level',
  'environment',
  'release',
  'trace-id',
  'request-id',
  'session-id',
  'user-id',
  'issue-id',
  'q',
  'since',
  'until',
  'limit',
  'cursor',
] as const

/** The query flags of `monitors`. */
export const MONITOR_FLAGS = ['environment', 'limit', 'cursor'] as const
/** The query flags of `deployments`. */
export const DEPLOYMENT_FLAGS = ['environment', 'release', 'repository', 'limit', 'cursor'] as const

function statusCommand(verb: string, status: string, summary: string): Command {
  return {
    name: `issues ${verb}`,
    args: ['<project_id>', '<issue_id>'],
    summary,
    async run({ client, args }) {
      const json = await client.request(
        'PATCH',
        `/api/v1/projects/${id(args[0]!)}/issues/${id(args[1]!)}`,
        { issue: { status } },
      )
      return { json, human: () => issueDetails((json as { issue: IssueJson }).issue) }
    },
  }
}

/** `tis issues …`, `tis events`, `tis event`, `tis monitors` and `tis deployments`: the read API. Sub-commands come before `issues` itself. */
export const READ_COMMANDS: readonly Command[] = [
  {
    name: 'issues show',
    args: ['<project_id>', '<issue_id>'],
    summary: 'Show one issue.',
    async run({ client, args }) {
      const json = await client.request(
        'GET',
        `/api/v1/projects/${id(args[0]!)}/issues/${id(args[1]!)}`,
      )
      return { json, human: () => issueDetails((json as { issue: IssueJson }).issue) }
    },
  },
  statusCommand('resolve', 'resolved', 'Resolve an issue; a new occurrence reopens it.'),
  statusCommand('ignore', 'ignored', 'Ignore an issue; it keeps counting.'),
  statusCommand('reopen', 'unresolved', 'Reopen an issue.'),
  {
    name: 'issues',
    args: ['<project_id>'],
    options: `[--${ISSUE_FLAGS.join(' <v>] [--')} <v>]`,
    summary:
      'List issues, newest activity first (default --status unresolved; or all); --query takes the search syntax (is:, level:, release:, …), --sort last_seen, first_seen or times_seen.',
    async run({ client, args, options }) {
      const path = `/api/v1/projects/${id(args[0]!)}/issues${queryString(ISSUE_FLAGS, options.query ?? {})}`
      const json = (await client.request('GET', path)) as {
        issues: IssueJson[]
        next_cursor: string | null
      }
      return { json, human: () => issueTable(json.issues) + more(json.next_cursor) }
    },
  },
  {
    name: 'events',
    args: ['<project_id>'],
    options: `[--${EVENT_FLAGS.join(' <v>] [--')} <v>]`,
    summary: 'List events, newest first.',
    async run({ client, args, options }) {
      const path = `/api/v1/projects/${id(args[0]!)}/events${queryString(EVENT_FLAGS, options.query ?? {})}`
      const json = (await client.request('GET', path)) as {
        events: EventJson[]
        next_cursor: string | null
      }
      return { json, human: () => eventTable(json.events) + more(json.next_cursor) }
    },
  },
  {
    name: 'event',
    args: ['<project_id>', '<event_id>'],
    summary: 'Show one event with its issue, deployment (and links) and related events.',
    async run({ client, args }) {
      const json = (await client.request(
        'GET',
        `/api/v1/projects/${id(args[0]!)}/events/${id(args[1]!)}`,
      )) as EventDetailJson
      return { json, human: () => eventDetails(json) }
    },
  },
  {
    name: 'monitors',
    args: ['<project_id>'],
    options: `[--${MONITOR_FLAGS.join(' <v>] [--')} <v>]`,
    summary: 'List monitors with their status (ok, error, missed), latest check-in first.',
    async run({ client, args, options }) {
      const path = `/api/v1/projects/${id(args[0]!)}/monitors${queryString(MONITOR_FLAGS, options.query ?? {})}`
      const json = (await client.request('GET', path)) as {
        monitors: MonitorJson[]
        next_cursor: string | null
      }
      return { json, human: () => monitorTable(json.monitors) + more(json.next_cursor) }
    },
  },
  {
    name: 'deployments',
    args: ['<project_id>'],
    options: `[--${DEPLOYMENT_FLAGS.join(' <v>] [--')} <v>]`,
    summary: 'List deployments, newest first.',
    async run({ client, args, options }) {
      const path = `/api/v1/projects/${id(args[0]!)}/deployments${queryString(DEPLOYMENT_FLAGS, options.query ?? {})}`
      const json = (await client.request('GET', path)) as {
        deployments: DeploymentJson[]
        next_cursor: string | null
      }
      return { json, human: () => deploymentTable(json.deployments) + more(json.next_cursor) }
    },
  },
]
