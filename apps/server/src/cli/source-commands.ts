import type { SourceSettings } from '@tis/schema'
import type { Command } from './command'
import { id } from './request-parts'

/** The flags of `source-settings set`; `default` clears a setting. */
export const SOURCE_FLAGS = [
  'github-token',
  'path-prefix',
  'context-lines',
  'github-api-url',
] as const

/** A project's source excerpt settings as the API returns them (never the token). */
export type SourceSettingsJson = SourceSettings

/** The settings as aligned lines. */
export function sourceSettingsDetails(s: SourceSettingsJson): string {
  const token = s.github_token_set
    ? 'set (project token)'
    : s.server_token_available
      ? 'not set (the server token SERVICE_GITHUB_TOKEN is used)'
      : 'not set (no excerpts until a token is set)'
  return [
    `github_token:   ${token}`,
    `path_prefix:    ${s.path_prefix ?? '(none: only relative paths map to the repository)'}`,
    `context_lines:  ${s.context_lines}`,
    `github_api_url: ${s.effective_github_api_url}${s.github_api_url === null ? ' (server default)' : ''}`,
    '',
  ].join('\n')
}

const settingsOf = (body: unknown) =>
  (body as { source_settings: SourceSettingsJson }).source_settings

/** `source-settings show|set`: the source excerpt settings of a project. */
export const SOURCE_COMMANDS: readonly Command[] = [
  {
    name: 'source-settings show',
    args: ['<project_id>'],
    summary: "Show a project's source excerpt settings (GitHub token set or not, path prefix, …).",
    async run({ client, args }) {
      const json = await client.request('GET', `/api/v1/projects/${id(args[0]!)}/source_settings`)
      return { json, human: () => sourceSettingsDetails(settingsOf(json)) }
    },
  },
  {
    name: 'source-settings set',
    args: ['<project_id>'],
    options: `[--${SOURCE_FLAGS.join(' <v>] [--')} <v>]`,
    summary:
      'Set source excerpt settings (owner or administrator); `default` clears one. Pass the token from a variable, e.g. --github-token "$GITHUB_TOKEN", to keep it out of shell history.',
    validate({ options }) {
      const given = SOURCE_FLAGS.filter((f) => options.query?.[f] !== undefined)
      if (given.length === 0)
        return `source-settings set needs at least one of --${SOURCE_FLAGS.join(', --')}`
      const lines = options.query?.['context-lines']
      if (lines !== undefined && lines !== 'default' && !/^\d+$/.test(lines)) {
        return '--context-lines must be an integer from 0 to 50, or default'
      }
      return undefined
    },
    async run({ client, args, options }) {
      const body: Record<string, unknown> = {}
      for (const flag of SOURCE_FLAGS) {
        const value = options.query?.[flag]
        if (value === undefined) continue
        const field = flag.replaceAll('-', '_')
        if (value === 'default') body[field] = null
        else body[field] = flag === 'context-lines' ? Number(value) : value
      }
      const json = await client.request(
        'PUT',
        `/api/v1/projects/${id(args[0]!)}/source_settings`,
        body,
      )
      return { json, human: () => sourceSettingsDetails(settingsOf(json)) }
    },
  },
]
