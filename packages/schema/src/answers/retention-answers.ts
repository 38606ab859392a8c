import * as z from 'zod'
import { component } from './common'

// Retention: a project's period and what it occupies, as `GET` and `PUT
// /api/v1/projects/:id/retention` answer them.

const count = z.int().min(0)
const figure = z.strictObject({
  rows: count.meta({ description: 'Rows in the database.' }),
  bytes: count.meta({
    description: "Approximate bytes: the rows' share of their table and its indexes.",
  }),
})

/** A project's retention and disk use. */
export const retentionSchema = component(
  'Retention',
  z.strictObject({
    days: count.meta({
      description:
        "Days events, spans and check-ins are kept: the project's own period, else the server default; 0 keeps them forever.",
    }),
    project_days: count
      .nullable()
      .meta({ description: "The project's own period; null follows the server default." }),
    default_days: count.meta({ description: 'SERVICE_RETENTION_DAYS.' }),
    usage: z.strictObject({
      events: figure,
      spans: figure,
      check_ins: figure,
      artifacts: z
        .strictObject({
          rows: count.meta({
            description: 'Source-map uploads stored: artifact bundles and release uploads.',
          }),
          bytes: count.meta({
            description:
              'Bytes of their files, each content once per upload that holds it (contents shared with another project are stored once).',
          }),
        })
        .meta({
          description: 'Uploaded source maps and sources (`sentry-cli sourcemaps upload`).',
        }),
      total_bytes: count,
    }),
  }),
  "A project's retention period and what it occupies (approximate: table statistics).",
)
/** A project's retention as the management API answers it. */
export type Retention = z.output<typeof retentionSchema>

/** `GET` and `PUT …/retention`. */
export const retentionAnswerSchema = z.strictObject({ retention: retentionSchema })
/** The body of that answer. */
export type RetentionAnswer = z.output<typeof retentionAnswerSchema>

/**
 * Approximate bytes in decimal units, as the CLI and the dashboard show a usage answer's bytes:
 * `512 B`, `1.2 kB`, `3.4 MB`.
 */
export function formatBytes(bytes: number): string {
  const units = ['B', 'kB', 'MB', 'GB', 'TB']
  let value = bytes
  let unit = 0
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000
    unit++
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`
}
