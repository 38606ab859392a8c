import { type ApiClient, ApiError } from './client'
import type { Command } from './command'
import {
  type CheckInJson,
  checkInTable,
  type MonitorDetailJson,
  monitorHeading,
} from './format-check-ins'
import { id, more, queryString } from './request-parts'

/** The flags of `monitors check-ins`; `project` and `environment` pick the monitor. */
export const CHECK_IN_FLAGS = [
  'project',
  'environment',
  'status',
  'since',
  'until',
  'limit',
  'cursor',
] as const
/** The flags sent as the history's query. */
const HISTORY_QUERY = ['status', 'since', 'until', 'limit', 'cursor'] as const

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * The monitor `ref` names in the project: its id, else its slug (in `environment`, which is
 * needed when the slug has monitors in several environments).
 * @throws {ApiError} when there is no such monitor, or the slug is ambiguous
 */
export async function resolveMonitor(
  client: ApiClient,
  project: string,
  ref: string,
  environment: string | undefined,
): Promise<MonitorDetailJson> {
  const base = `/api/v1/projects/${id(project)}/monitors`
  if (UUID.test(ref)) {
    try {
      return ((await client.request('GET', `${base}/${id(ref)}`)) as { monitor: MonitorDetailJson })
        .monitor
    } catch (error) {
      // A slug may look like a UUID: an unknown id is looked up as a slug below.
      if (!(error instanceof ApiError) || error.status !== 404) throw error
    }
  }
  const query = queryString(['slug', 'environment', 'limit'], {
    slug: ref,
    environment,
    limit: '200',
  })
  const { monitors } = (await client.request('GET', `${base}${query}`)) as {
    monitors: MonitorDetailJson[]
  }
  const [only] = monitors
  if (monitors.length === 1 && only) return only
  const where = environment === undefined ? '' : ` in environment ${environment}`
  if (!only) throw new ApiError(404, [`no monitor ${ref}${where} in project ${project}`])
  const environments = monitors.map((m) => m.environment).join(', ')
  throw new ApiError(422, [
    `monitor ${ref} runs in several environments (${environments}): add --environment <name>`,
  ])
}

/** `tis monitors check-ins`: one monitor's history. Listed before `monitors` itself. */
export const MONITOR_COMMANDS: readonly Command[] = [
  {
    name: 'monitors check-ins',
    args: ['<monitor_id_or_slug>'],
    options: `--project <project_id> [--${CHECK_IN_FLAGS.slice(1).join(' <v>] [--')} <v>]`,
    summary:
      "A monitor's check-in history, newest first: time, status, duration, environment, release, trace. A slug in several environments needs --environment.",
    validate: ({ options }) =>
      options.query?.['project'] ? undefined : 'monitors check-ins needs --project <project_id>',
    async run({ client, args, options }) {
      const q = options.query ?? {}
      const project = q['project'] ?? ''
      const monitor = await resolveMonitor(client, project, args[0]!, q['environment'])
      const path = `/api/v1/projects/${id(project)}/monitors/${id(monitor.id)}/check_ins${queryString(HISTORY_QUERY, q)}`
      const json = (await client.request('GET', path)) as {
        check_ins: CheckInJson[]
        next_cursor: string | null
      }
      return {
        json,
        human: () =>
          monitorHeading(monitor) + checkInTable(json.check_ins) + more(json.next_cursor),
      }
    },
  },
]
