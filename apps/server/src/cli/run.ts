import { parseArgs } from 'node:util'
import { INTEGRATION_KINDS } from '@tis/schema'
import { ALERT_FLAGS } from './alert-commands'
import { ApiError, createApiClient } from './client'
import { type Command, UsageError } from './command'
import { COMMANDS } from './commands'
import { findLocalCommand, LOCAL_COMMANDS } from './local-commands'
import { CHECK_IN_FLAGS } from './monitor-commands'
import { METRIC_FLAGS, TRACE_FLAGS, TRANSACTION_FLAGS } from './performance-commands'
import { DEPLOYMENT_FLAGS, EVENT_FLAGS, ISSUE_FLAGS, MONITOR_FLAGS } from './read-commands'
import { RELEASE_FLAGS } from './release-commands'
import { SCRUBBING_FLAGS } from './scrubbing-commands'
import { SOURCE_FLAGS } from './source-commands'
import { SOURCEMAP_FLAGS } from './sourcemap-commands'

/** Exit codes of `tis`: success, an API (or network) error, a usage error. */
export const EXIT = { ok: 0, api: 1, usage: 2 } as const

/** Where the CLI reads its environment and writes its output; swapped in tests. */
export interface CliIo {
  readonly env: Readonly<Record<string, string | undefined>>
  readonly stdout: (text: string) => void
  readonly stderr: (text: string) => void
  /** @default globalThis.fetch */
  readonly fetch?: typeof fetch
  /** Ends `tis worker` (default: SIGTERM or SIGINT). */
  readonly stop?: Promise<void>
}

const DEFAULT_URL = 'http://localhost:3000'

/** The text of `tis help`. */
export function helpText(): string {
  const width = Math.max(...COMMANDS.map((c) => synopsis(c).length))
  return [
    'tis — manage a tis server (users, your sessions and access token, projects, API keys, members, mobile tokens, rate limits, alerts) and read its issues, events, monitors, deployments, releases, transactions, metrics and traces.',
    '',
    'Usage: tis <command> [arguments] [--url <url>] [--json]',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${synopsis(c).padEnd(width)}  ${c.summary}`),
    `  ${'help'.padEnd(width)}  Show this help.`,
    '',
    'Server-side commands (read the server configuration, SERVICE_* and DATABASE_URL):',
    ...LOCAL_COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Options:',
    `  --url <url>   Server base URL (default: TIS_URL, else ${DEFAULT_URL}).`,
    "  --json        Print the API's JSON instead of text.",
    '',
    'Environment:',
    '  TIS_TOKEN     Your access token (tis_user_…), printed by the server on first run.',
    '  TIS_URL       Server base URL.',
    '',
    `Integration kinds: ${INTEGRATION_KINDS.join(', ')}.`,
    'Exit codes: 0 success, 1 the API refused (its message is printed), 2 usage error.',
    '',
  ].join('\n')
}

function synopsis(command: Command): string {
  return [command.name, ...command.args, command.options ?? ''].join(' ').trim()
}

/** Finds the command whose words are the leading positionals. */
function findCommand(positionals: readonly string[]): Command | undefined {
  return COMMANDS.find((c) => {
    const words = c.name.split(' ')
    return words.every((w, i) => positionals[i] === w)
  })
}

/**
 * Runs `tis` with `argv` (without `node` and the script) and resolves its exit code. API errors
 * print their message(s) to stderr (exit 1); usage errors print the problem and a pointer to
 * `tis help` (exit 2). Only unexpected errors (bugs) reject.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const usage = (problem: string) => {
    io.stderr(`tis: ${problem}\nRun 'tis help' for usage.\n`)
    return EXIT.usage
  }
  let parsed: ReturnType<typeof parse>
  try {
    parsed = parse(argv)
  } catch (error) {
    return usage((error as Error).message)
  }
  const { values, positionals } = parsed
  if (values.help || positionals[0] === 'help') {
    io.stdout(helpText())
    return EXIT.ok
  }
  if (positionals.length === 0) {
    io.stderr(helpText())
    return EXIT.usage
  }
  const local = findLocalCommand(positionals)
  if (local) {
    if (positionals.length !== local.name.split(' ').length)
      return usage(`usage: tis ${local.name}`)
    const project = (values as Record<string, unknown>)['project'] as string | undefined
    return local.run({
      ...io,
      options: { dryRun: values['dry-run'], json: values.json, ...(project ? { project } : {}) },
    })
  }
  const command = findCommand(positionals)
  if (!command) return usage(`unknown command: ${positionals.slice(0, 2).join(' ')}`)
  const args = positionals.slice(command.name.split(' ').length)
  if (args.length !== command.args.length) {
    return usage(`usage: tis ${synopsis(command)}`)
  }
  const options = {
    kind: values.kind,
    name: values.name,
    requests: values.requests,
    periodSeconds: values['period-seconds'],
    authFailures: values['auth-failures'],
    days: values.days,
    query: Object.fromEntries(
      QUERY_FLAGS.map((flag) => [
        flag,
        (values as Record<string, unknown>)[flag] as string | undefined,
      ]),
    ),
  }
  const problem = command.validate?.({ args, options })
  if (problem) return usage(problem)
  const token = io.env['TIS_TOKEN']
  if (!token) return usage('TIS_TOKEN is not set: export the access token the server printed')

  const client = createApiClient({
    baseUrl: values.url ?? io.env['TIS_URL'] ?? DEFAULT_URL,
    token,
    ...(io.fetch ? { fetch: io.fetch } : {}),
  })
  try {
    const result = await command.run({ client, args, options })
    if (!values.json) io.stdout(result.human())
    else if (result.json !== null) io.stdout(`${JSON.stringify(result.json, null, 2)}\n`)
    return EXIT.ok
  } catch (error) {
    if (error instanceof UsageError) return usage(error.message)
    if (!(error instanceof ApiError)) throw error
    for (const message of error.messages) io.stderr(`tis: ${message}\n`)
    if (error.status === 401) io.stderr('tis: (check TIS_TOKEN: it must be a user access token)\n')
    return EXIT.api
  }
}

const QUERY_FLAGS = [
  ...new Set([
    ...ISSUE_FLAGS,
    ...EVENT_FLAGS,
    ...MONITOR_FLAGS,
    ...CHECK_IN_FLAGS,
    ...DEPLOYMENT_FLAGS,
    ...TRANSACTION_FLAGS,
    ...METRIC_FLAGS,
    ...TRACE_FLAGS,
    ...RELEASE_FLAGS,
    ...SOURCE_FLAGS,
    ...SCRUBBING_FLAGS,
    ...SOURCEMAP_FLAGS,
    ...ALERT_FLAGS,
  ]),
]

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      url: { type: 'string' },
      json: { type: 'boolean', default: false },
      kind: { type: 'string' },
      name: { type: 'string' },
      requests: { type: 'string' },
      'period-seconds': { type: 'string' },
      'auth-failures': { type: 'string' },
      days: { type: 'string' },
      'dry-run': { type: 'boolean', default: false },
      ...Object.fromEntries(QUERY_FLAGS.map((flag) => [flag, { type: 'string' as const }])),
      help: { type: 'boolean', short: 'h', default: false },
    },
  })
}
