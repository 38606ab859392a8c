import * as z from 'zod'
import { dateTimeField } from './common'

// The answers of `GET /health` and `GET /health/ready` (described with the management API).

/** `GET /health`: the server is up. */
export const healthSchema = z.strictObject({ status: z.literal('ok') })
/** The answer of `GET /health`. */
export type Liveness = z.output<typeof healthSchema>

/** The projection's lag in a readiness answer (docs/write-path.md). */
export const projectionLagSchema = z
  .strictObject({
    records: z.int().meta({
      description: 'Acknowledged records not projected yet (counted up to a cap).',
    }),
    seconds: z.number().meta({ description: 'Age of the oldest of them.' }),
    max_seconds: z.number(),
    lagging: z.boolean(),
    measured_at: dateTimeField.meta({
      description: 'When the lag was measured: a measurement is reused for about 1 s.',
    }),
  })
  .meta({
    description:
      'How far the read model is behind acceptance (docs/write-path.md); absent when the store has no ingest log.',
  })

/** `GET /health/ready` when the primary store answered. */
export const readySchema = z.strictObject({
  status: z.enum(['ok', 'lagging']).meta({
    description:
      '`lagging` when the projection is further behind than `SERVICE_PROJECTION_MAX_LAG_SECONDS` (acceptance still works).',
  }),
  store: z.literal('ok'),
  projection: projectionLagSchema.optional(),
})
/** The 200 answer of `GET /health/ready`. */
export type Readiness = z.output<typeof readySchema>

/** `GET /health/ready` when the primary store failed or did not answer in time. */
export const unavailableSchema = z.strictObject({
  status: z.literal('unavailable'),
  store: z.literal('unreachable'),
  message: z.string(),
})
/** The 503 answer of `GET /health/ready`. */
export type ReadinessUnavailable = z.output<typeof unavailableSchema>
