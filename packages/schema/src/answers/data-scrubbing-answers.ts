import * as z from 'zod'
import { component } from './common'

// A project's data-scrubbing settings, as `GET` and `PUT /api/v1/projects/:id/data_scrubbing`
// answer them (docs/data-scrubbing.md).

const names = z.array(z.string())

/** The settings in force. */
export const dataScrubbingSchema = component(
  'DataScrubbing',
  z.strictObject({
    enabled: z.boolean().meta({
      description:
        'Secrets are replaced by "[Filtered]" before an event is stored (default true); false stores values as sent.',
    }),
    extra_fields: names.meta({
      description: 'Key names filtered besides the defaults (matched on word boundaries).',
    }),
    safe_fields: names.meta({
      description: 'Key names never filtered (exact, case-insensitive), whatever their value.',
    }),
    scrub_ip_addresses: z.boolean().meta({
      description:
        'Client IP addresses (user.ip_address, REMOTE_ADDR, X-Forwarded-For, a user_id that is an IP) are filtered too (default false).',
    }),
  }),
  "A project's data-scrubbing settings: what is filtered from events before they are stored.",
)
/** A project's data-scrubbing settings as the management API answers them. */
export type DataScrubbing = z.output<typeof dataScrubbingSchema>

/** `GET` and `PUT …/data_scrubbing`. */
export const dataScrubbingAnswerSchema = z.strictObject({ data_scrubbing: dataScrubbingSchema })
/** The body of that answer. */
export type DataScrubbingAnswer = z.output<typeof dataScrubbingAnswerSchema>
