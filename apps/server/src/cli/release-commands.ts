import type { Command } from './command'
import {
  type ReleaseDetailJson,
  type ReleaseJson,
  releaseDetails,
  releaseTable,
} from './format-releases'
import { id, more, queryString } from './request-parts'

/** The flags of `releases list`; `project` names the project, the rest is the query. */
export const RELEASE_FLAGS = [
  'project',
  'environment',
  'since',
  'until',
  'limit',
  'cursor',
] as const
const LIST_QUERY = RELEASE_FLAGS.slice(1)
const SHOW_QUERY = ['environment', 'since', 'until'] as const

const needsProject =
  (name: string): NonNullable<Command['validate']> =>
  ({ options }) =>
    options.query?.['project'] ? undefined : `${name} needs --project <project_id>`

const base = (query: Readonly<Record<string, string | undefined>> | undefined) =>
  `/api/v1/projects/${id(query?.['project'] ?? '')}/releases`

/** `tis releases list|show`: release health (crash-free sessions and users, adoption). */
export const RELEASE_COMMANDS: readonly Command[] = [
  {
    name: 'releases list',
    args: [],
    options: `--project <project_id> [--${LIST_QUERY.join(' <v>] [--')} <v>]`,
    summary:
      'Releases seen in the window (default: the last 30 days), last seen first: crash-free sessions and users, adoption (last 24 h), sessions, users.',
    validate: needsProject('releases list'),
    async run({ client, options }) {
      const path = `${base(options.query)}${queryString(LIST_QUERY, options.query ?? {})}`
      const json = (await client.request('GET', path)) as {
        releases: ReleaseJson[]
        next_cursor: string | null
      }
      return { json, human: () => releaseTable(json.releases) + more(json.next_cursor) }
    },
  },
  {
    name: 'releases show',
    args: ['<version>'],
    options: '--project <project_id> [--environment <v>] [--since <v>] [--until <v>]',
    summary: "One release's health over the window, its new issues and its deployments.",
    validate: needsProject('releases show'),
    async run({ client, args, options }) {
      const path = `${base(options.query)}/${id(args[0]!)}${queryString(SHOW_QUERY, options.query ?? {})}`
      const json = (await client.request('GET', path)) as { release: ReleaseDetailJson }
      return { json, human: () => releaseDetails(json.release) }
    },
  },
]
