import { ACCOUNT_COMMANDS } from './account-commands'
import type { ApiClient } from './client'
import {
  type ApiKeyJson,
  keyTable,
  limitsDetails,
  type MemberJson,
  type MobileTokenJson,
  memberTable,
  mobileTokenTable,
  type ProjectJson,
  projectDetails,
  projectTable,
  type RateLimitJson,
} from './format'
import { MONITOR_COMMANDS } from './monitor-commands'
import { PERFORMANCE_COMMANDS } from './performance-commands'
import { READ_COMMANDS } from './read-commands'
import { SOURCE_COMMANDS } from './source-commands'

/** What a command gets: the API client, its positional arguments and the parsed options. */
export interface CommandContext {
  readonly client: ApiClient
  /** Positional arguments after the command words, as many as the command declares. */
  readonly args: readonly string[]
  readonly options: {
    readonly kind?: string | undefined
    readonly name?: string | undefined
    /** `limits set --requests <n>` */
    readonly requests?: string | undefined
    /** `limits set --period-seconds <n>` */
    readonly periodSeconds?: string | undefined
    /** `limits set --auth-failures <n>` */
    readonly authFailures?: string | undefined
    /** Query flags of the read commands, by flag name (e.g. `trace-id`). */
    readonly query?: Readonly<Record<string, string | undefined>>
  }
}

/** A command's outcome: the API's JSON (for `--json`) and how to render it for people. */
export interface CommandResult {
  readonly json: unknown
  /** Formats the human-readable text; not called with `--json`. */
  readonly human: () => string
}

/** One CLI command, e.g. `projects create`. */
export interface Command {
  /** The command words, e.g. `projects create`. */
  readonly name: string
  /** Positional argument names, e.g. `['<project_id>', '<key_id>']`. */
  readonly args: readonly string[]
  /** Option synopsis shown in help, e.g. `--kind <integration_kind>`. */
  readonly options?: string
  readonly summary: string
  /** A usage problem found before calling the API (e.g. a missing required option). */
  validate?(context: Omit<CommandContext, 'client'>): string | undefined
  run(context: CommandContext): Promise<CommandResult>
}

const id = (value: string) => encodeURIComponent(value)
const projectOf = (body: unknown) => (body as { project: ProjectJson }).project
const limitsOf = (body: unknown) => (body as { rate_limit: RateLimitJson }).rate_limit

/** A `limits set` option value: an integer as sent, `default` (or absent) as null. */
function limitValue(value: string | undefined): number | string | null {
  if (value === undefined || value === 'default') return null
  return /^\d+$/.test(value) ? Number(value) : value
}

/** Every command of `tis`, in the order `tis help` lists them. */
export const COMMANDS: readonly Command[] = [
  {
    name: 'users create',
    args: ['<email>'],
    summary: 'Create a user (administrators only); prints its access token once.',
    async run({ client, args }) {
      const json = (await client.request('POST', '/api/v1/users', {
        user: { email: args[0] },
      })) as {
        user: { id: string; email: string; admin: boolean }
        access_token: string
      }
      return {
        json,
        human: () =>
          `Created user ${json.user.email} (${json.user.id})${json.user.admin ? ', administrator' : ''}.\nAccess token (shown only now): ${json.access_token}\n`,
      }
    },
  },
  ...ACCOUNT_COMMANDS,
  {
    name: 'projects create',
    args: ['<name>'],
    options: '--kind <integration_kind>',
    summary: 'Create a project you own.',
    validate: ({ options }) =>
      options.kind ? undefined : 'projects create needs --kind <integration_kind> (e.g. node)',
    async run({ client, args, options }) {
      const json = await client.request('POST', '/api/v1/projects', {
        project: { name: args[0], integration_kind: options.kind },
      })
      const human = (project: ProjectJson) =>
        `Created project ${project.name} (${project.integration_kind}).\n  id: ${project.id}\nNext: tis keys create ${project.id}\n`
      return { json, human: () => human(projectOf(json)) }
    },
  },
  {
    name: 'projects list',
    args: [],
    summary: 'List the projects you own or share (every project for administrators).',
    async run({ client }) {
      const json = await client.request('GET', '/api/v1/projects')
      return { json, human: () => projectTable((json as { projects: ProjectJson[] }).projects) }
    },
  },
  {
    name: 'projects show',
    args: ['<project_id>'],
    summary: 'Show one project.',
    async run({ client, args }) {
      const json = await client.request('GET', `/api/v1/projects/${id(args[0]!)}`)
      return { json, human: () => projectDetails(projectOf(json)) }
    },
  },
  {
    name: 'projects archive',
    args: ['<project_id>'],
    summary: 'Archive a project: its API keys stop working at once.',
    async run({ client, args }) {
      const json = await client.request('POST', `/api/v1/projects/${id(args[0]!)}/archive`)
      return {
        json,
        human: () => `Archived project ${projectOf(json).name}; its API keys are revoked.\n`,
      }
    },
  },
  {
    name: 'projects restore',
    args: ['<project_id>'],
    summary: 'Restore an archived project; create a new API key to ingest again.',
    async run({ client, args }) {
      const json = await client.request('POST', `/api/v1/projects/${id(args[0]!)}/restore`)
      const human = (project: ProjectJson) =>
        `Restored project ${project.name}. Create a new key: tis keys create ${project.id}\n`
      return { json, human: () => human(projectOf(json)) }
    },
  },
  {
    name: 'keys create',
    args: ['<project_id>'],
    options: '[--name <name>]',
    summary: 'Create a project API key; prints its token once.',
    async run({ client, args, options }) {
      const body = options.name === undefined ? undefined : { api_key: { name: options.name } }
      const json = (await client.request(
        'POST',
        `/api/v1/projects/${id(args[0]!)}/api_keys`,
        body,
      )) as { api_key: ApiKeyJson; token: string }
      const human = () =>
        [
          `Created API key ${json.api_key.name} (${json.api_key.id}).`,
          `Token (shown only now): ${json.token}`,
          '',
          'Send an event with it:',
          `  curl -i -X POST ${client.baseUrl}/api/v1/ingest_events \\`,
          `    -H 'Authorization: Bearer ${json.token}' -H 'Content-Type: application/json' \\`,
          `    -d '{"event":{"event_type":"error","message":"Hello from tis"}}'`,
          '',
        ].join('\n')
      return { json, human }
    },
  },
  {
    name: 'keys list',
    args: ['<project_id>'],
    summary: "List a project's API keys (never their tokens).",
    async run({ client, args }) {
      const json = await client.request('GET', `/api/v1/projects/${id(args[0]!)}/api_keys`)
      return { json, human: () => keyTable((json as { api_keys: ApiKeyJson[] }).api_keys) }
    },
  },
  {
    name: 'keys revoke',
    args: ['<project_id>', '<key_id>'],
    summary: 'Revoke an API key: requests with it get 401 from now on.',
    async run({ client, args }) {
      const json = await client.request(
        'DELETE',
        `/api/v1/projects/${id(args[0]!)}/api_keys/${id(args[1]!)}`,
      )
      return { json, human: () => `Revoked API key ${args[1]}.\n` }
    },
  },
  {
    name: 'members list',
    args: ['<project_id>'],
    summary: 'List who may see a project: the owner, then members.',
    async run({ client, args }) {
      const json = await client.request('GET', `/api/v1/projects/${id(args[0]!)}/members`)
      return { json, human: () => memberTable((json as { members: MemberJson[] }).members) }
    },
  },
  {
    name: 'members add',
    args: ['<project_id>', '<email>'],
    summary: 'Share a project with an existing user.',
    async run({ client, args }) {
      const json = await client.request('POST', `/api/v1/projects/${id(args[0]!)}/members`, {
        member: { email: args[1] },
      })
      return { json, human: () => `${args[1]} is a member of project ${args[0]}.\n` }
    },
  },
  {
    name: 'mobile-tokens list',
    args: ['<project_id>'],
    summary: "List a project's live mobile ingest tokens (never their tokens).",
    async run({ client, args }) {
      const json = await client.request('GET', `/api/v1/projects/${id(args[0]!)}/mobile_tokens`)
      const tokens = (json as { mobile_tokens: MobileTokenJson[] }).mobile_tokens
      return { json, human: () => mobileTokenTable(tokens) }
    },
  },
  {
    name: 'mobile-tokens revoke',
    args: ['<project_id>', '<token_id>'],
    summary: 'Revoke a mobile ingest token: requests with it get 401 from now on.',
    async run({ client, args }) {
      const json = await client.request(
        'DELETE',
        `/api/v1/projects/${id(args[0]!)}/mobile_tokens/${id(args[1]!)}`,
      )
      return { json, human: () => `Revoked mobile token ${args[1]}.\n` }
    },
  },
  {
    name: 'limits show',
    args: ['<project_id>'],
    summary: "Show a project's effective rate limits and which are overrides.",
    async run({ client, args }) {
      const json = await client.request('GET', `/api/v1/projects/${id(args[0]!)}/rate_limits`)
      return { json, human: () => limitsDetails(limitsOf(json)) }
    },
  },
  {
    name: 'limits set',
    args: ['<project_id>'],
    options: '[--requests <n>] [--period-seconds <n>] [--auth-failures <n>]',
    summary:
      'Override rate limits (administrators only); an omitted option or `default` uses the server default, none at all clears every override.',
    async run({ client, args, options }) {
      const values = [options.requests, options.periodSeconds, options.authFailures]
      const body = values.every((v) => v === undefined)
        ? { rate_limit: null }
        : {
            rate_limit: {
              requests: limitValue(options.requests),
              period_seconds: limitValue(options.periodSeconds),
              auth_failure_requests: limitValue(options.authFailures),
            },
          }
      const json = await client.request('PUT', `/api/v1/projects/${id(args[0]!)}/rate_limits`, body)
      return { json, human: () => limitsDetails(limitsOf(json)) }
    },
  },
  ...SOURCE_COMMANDS,
  ...MONITOR_COMMANDS,
  ...READ_COMMANDS,
  ...PERFORMANCE_COMMANDS,
]
