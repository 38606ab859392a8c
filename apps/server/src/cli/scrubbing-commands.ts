import type { DataScrubbing } from '@tis/schema'
import { type Command, UsageError } from './command'
import { id } from './request-parts'

/** The flags of `tis scrubbing set`. */
export const SCRUBBING_FLAGS = ['enabled', 'extra-fields', 'safe-fields', 'scrub-ip-addresses']

const settingsOf = (body: unknown) => (body as { data_scrubbing: DataScrubbing }).data_scrubbing

const list = (names: readonly string[]) => (names.length > 0 ? names.join(', ') : '(none)')

/** A project's data-scrubbing settings as `key: value` lines. */
export function scrubbingDetails(s: DataScrubbing): string {
  return [
    `enabled:            ${s.enabled ? 'yes' : 'no (values are stored as sent)'}`,
    `extra_fields:       ${list(s.extra_fields)}`,
    `safe_fields:        ${list(s.safe_fields)}`,
    `scrub_ip_addresses: ${s.scrub_ip_addresses ? 'yes' : 'no'}`,
  ].join('\n')
}

function flag(value: string, name: string): boolean {
  if (/^(true|yes|on)$/i.test(value)) return true
  if (/^(false|no|off)$/i.test(value)) return false
  throw new UsageError(`--${name} takes true or false, not ${JSON.stringify(value)}`)
}

/** A comma-separated list; an empty value (`--safe-fields ""`) clears it. */
const names = (value: string) =>
  value
    .split(',')
    .map((n) => n.trim())
    .filter((n) => n !== '')

/** `tis scrubbing get|set`: what the server filters from a project's events before storing them. */
export const SCRUBBING_COMMANDS: readonly Command[] = [
  {
    name: 'scrubbing get',
    args: ['<project_id>'],
    summary:
      "Show a project's data-scrubbing settings (what is filtered before events are stored).",
    async run({ client, args }) {
      const json = await client.request('GET', `/api/v1/projects/${id(args[0]!)}/data_scrubbing`)
      return { json, human: () => scrubbingDetails(settingsOf(json)) }
    },
  },
  {
    name: 'scrubbing set',
    args: ['<project_id>'],
    options: `[--${SCRUBBING_FLAGS.join(' <v>] [--')} <v>]`,
    summary:
      'Change data scrubbing (owner or administrator): --enabled true|false, --extra-fields and --safe-fields a comma-separated list of key names (replacing the list; "" clears it), --scrub-ip-addresses true|false. A flag left out keeps its value.',
    validate({ options }) {
      const given = SCRUBBING_FLAGS.filter((f) => options.query?.[f] !== undefined)
      return given.length === 0
        ? `scrubbing set needs at least one of --${SCRUBBING_FLAGS.join(', --')}`
        : undefined
    },
    async run({ client, args, options }) {
      const q = (f: string) => options.query?.[f]
      const body: Record<string, unknown> = {}
      const enabled = q('enabled')
      if (enabled !== undefined) body['enabled'] = flag(enabled, 'enabled')
      const extra = q('extra-fields')
      if (extra !== undefined) body['extra_fields'] = names(extra)
      const safe = q('safe-fields')
      if (safe !== undefined) body['safe_fields'] = names(safe)
      const ips = q('scrub-ip-addresses')
      if (ips !== undefined) body['scrub_ip_addresses'] = flag(ips, 'scrub-ip-addresses')
      const json = await client.request('PUT', `/api/v1/projects/${id(args[0]!)}/data_scrubbing`, {
        data_scrubbing: body,
      })
      return { json, human: () => scrubbingDetails(settingsOf(json)) }
    },
  },
]
