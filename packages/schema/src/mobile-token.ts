import * as z from 'zod'
import { EVENT_TYPES, type EventType, MOBILE_PLATFORMS } from './enums'
import { ENVELOPE_KEYS, unwrapEnvelope } from './envelope'
import { columnText, oneOf, requiredColumnText } from './formats'
import { canonicalizeKeys, type KeySpec } from './keys'
import { formatIssues, renderProblems } from './messages'
import { type ParseResult, success, unprocessable } from './result'

/** Bounds and default of `expires_in_seconds` (section 2.5). */
export const MOBILE_TOKEN_EXPIRY = { default: 900, min: 60, max: 3600 } as const

/** The `mobile_ingest_token` object of `POST /api/v1/mobile_ingest_tokens` (section 2.5). */
export const mobileTokenRequestSchema = z
  .strictObject(
    {
      platform: oneOf(MOBILE_PLATFORMS).meta({
        description: 'Must match the integration kind of the project.',
      }),
      service: requiredColumnText().meta({
        description: 'Android package name or iOS bundle identifier.',
      }),
      environment: requiredColumnText(),
      release: columnText().optional(),
      session_id: columnText().optional(),
      expires_in_seconds: z
        .int({ error: 'must be an integer' })
        .min(MOBILE_TOKEN_EXPIRY.min, {
          error: `must be greater than or equal to ${MOBILE_TOKEN_EXPIRY.min}`,
        })
        .max(MOBILE_TOKEN_EXPIRY.max, {
          error: `must be less than or equal to ${MOBILE_TOKEN_EXPIRY.max}`,
        })
        .optional()
        .meta({ description: 'Default 900.' }),
      allowed_event_types: z
        .array(oneOf(EVENT_TYPES), { error: 'must be an array' })
        .min(1, { error: "can't be empty" })
        .optional()
        .meta({ description: 'Default: all six event types.' }),
    },
    { error: 'must be an object' },
  )
  .meta({
    id: 'tis.MobileIngestTokenRequest',
    description:
      'A request for a short-lived mobile ingest token (section 2.5); no other properties.',
  })

const MOBILE_TOKEN_FIELDS = Object.keys(mobileTokenRequestSchema.shape)
const MOBILE_TOKEN_KEYS: KeySpec = { known: new Set(MOBILE_TOKEN_FIELDS) }

/** An accepted mobile token request with the defaults of section 2.5 applied. */
export type NormalizedMobileTokenRequest = Omit<
  z.output<typeof mobileTokenRequestSchema>,
  'expires_in_seconds' | 'allowed_event_types'
> & {
  expires_in_seconds: number
  allowed_event_types: EventType[]
}

/**
 * Parses the body of `POST /api/v1/mobile_ingest_tokens`: unwraps
 * `mobile_ingest_token`/`MOBILE_INGEST_TOKEN`, renames camelCase and upper-case fields, rejects
 * unknown properties and applies the defaults of section 2.5. Repeated event types are merged.
 */
export function parseMobileTokenEnvelope(body: unknown): ParseResult<NormalizedMobileTokenRequest> {
  const unwrapped = unwrapEnvelope(body, ENVELOPE_KEYS.mobileIngestToken)
  if (!unwrapped.ok) return unwrapped
  const parsed = mobileTokenRequestSchema.safeParse(
    canonicalizeKeys(unwrapped.value, MOBILE_TOKEN_KEYS),
  )
  if (!parsed.success) {
    return unprocessable(renderProblems(formatIssues(parsed.error.issues), MOBILE_TOKEN_FIELDS))
  }
  const request = parsed.data
  return success({
    ...request,
    expires_in_seconds: request.expires_in_seconds ?? MOBILE_TOKEN_EXPIRY.default,
    allowed_event_types: [...new Set(request.allowed_event_types ?? EVENT_TYPES)],
  })
}
