import type { Command } from './command'
import { limitsDetails, type RateLimitJson } from './format'
import { id } from './request-parts'

const limitsOf = (body: unknown) => (body as { rate_limit: RateLimitJson }).rate_limit

/** A `limits set` option value: an integer as sent, `default` (or absent) as null. */
function limitValue(value: string | undefined): number | string | null {
  if (value === undefined || value === 'default') return null
  return /^\d+$/.test(value) ? Number(value) : value
}

/** `tis limits show|set`: a project's rate limits. */
export const LIMIT_COMMANDS: readonly Command[] = [
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
]
