import * as z from 'zod'
import { EVENT_TYPES, MOBILE_PLATFORMS } from './enums'

/** 201 body of an accepted event (section 2.6). */
const duplicate = z.literal(true).optional().meta({
  description:
    'Present (with status 200) when a record with this `event_id` (spans: this `trace_id` and `span_id`) was already stored in the project: the body is the stored record, and nothing was written.',
})

export const acceptedEventSchema = z
  .object({
    id: z.uuid(),
    legacy_id: z.int(),
    status: z.literal('accepted'),
    duplicate,
  })
  .meta({ id: 'tis.AcceptedEvent', description: 'An accepted event.' })
/** 201 body of an accepted event. */
export type AcceptedEvent = z.output<typeof acceptedEventSchema>

/** 201 body of an accepted span: an accepted event plus `type: "span"`. */
export const acceptedSpanSchema = acceptedEventSchema
  .extend({ type: z.literal('span') })
  .meta({ id: 'tis.AcceptedSpan', description: 'An accepted span.' })
/** 201 body of an accepted span. */
export type AcceptedSpan = z.output<typeof acceptedSpanSchema>

/** 201 body of an accepted check-in: no `legacy_id`. */
export const acceptedCheckInSchema = z
  .object({ id: z.uuid(), status: z.literal('accepted'), duplicate })
  .meta({ id: 'tis.AcceptedCheckIn', description: 'An accepted check-in.' })
/** 201 body of an accepted check-in. */
export type AcceptedCheckIn = z.output<typeof acceptedCheckInSchema>

/** 201 body of an accepted deployment. */
export const acceptedDeploymentSchema = acceptedEventSchema
  .omit({ duplicate: true })
  .meta({ id: 'tis.AcceptedDeployment', description: 'An accepted deployment.' })
/** 201 body of an accepted deployment. */
export type AcceptedDeployment = z.output<typeof acceptedDeploymentSchema>

/** 201 body of `POST /api/v1/mobile_ingest_tokens`; `token` is shown only here. */
export const mobileTokenResponseSchema = z
  .object({
    token: z.string().meta({ description: 'Plaintext token, shown once.' }),
    expires_at: z.iso.datetime({ offset: true }),
    platform: z.enum(MOBILE_PLATFORMS),
    service: z.string(),
    environment: z.string(),
    allowed_event_types: z.array(z.enum(EVENT_TYPES)),
    release: z.string().optional(),
    session_id: z.string().optional(),
  })
  .meta({ id: 'tis.MobileIngestTokenResponse', description: 'A minted mobile ingest token.' })
/** 201 body of a mobile token mint. */
export type MobileTokenResponse = z.output<typeof mobileTokenResponseSchema>

/** Body of 400, 401, 403 (and other single-message errors). */
export const errorBodySchema = z
  .object({ error: z.string() })
  .meta({ id: 'tis.Error', description: 'An error with one message.' })
/** Body of 400, 401 and 403 responses. */
export type ErrorBody = z.output<typeof errorBodySchema>

/** Body of 422: every validation problem, one human-readable message each. */
export const validationErrorBodySchema = z
  .object({ errors: z.array(z.string()) })
  .meta({ id: 'tis.ValidationErrors', description: 'Every validation problem of the request.' })
/** Body of 422 responses. */
export type ValidationErrorBody = z.output<typeof validationErrorBodySchema>

/** Body of 429 (section 7). */
export const rateLimitErrorBodySchema = z
  .object({
    error: z.literal('Rate limit exceeded'),
    limit: z.int(),
    window_seconds: z.int(),
    retry_after: z.int(),
  })
  .meta({
    id: 'tis.RateLimitError',
    description: 'The request cap of the current window was reached.',
  })
/** Body of 429 responses. */
export type RateLimitErrorBody = z.output<typeof rateLimitErrorBodySchema>

/** Body of `GET /health/analytics_store`. */
export const analyticsReadinessSchema = z
  .looseObject({
    status: z.string().meta({ description: 'disabled, ready or not_ready' }),
    enabled: z.boolean(),
    ready: z.boolean(),
    missing_tables: z.array(z.string()).optional(),
  })
  .meta({ id: 'tis.AnalyticsReadiness', description: 'Readiness of the optional analytics store.' })
/** Body of the analytics readiness endpoint. */
export type AnalyticsReadiness = z.output<typeof analyticsReadinessSchema>

/** The fixed error bodies of section 7. */
export const ERROR_BODIES = {
  unauthorized: { error: 'Unauthorized' },
  forbidden: { error: 'Forbidden' },
  rateLimited: 'Rate limit exceeded',
} as const
