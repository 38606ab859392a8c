import * as z from 'zod'
import { INTEGRATION_KINDS } from './enums'
import { unwrapEnvelope } from './envelope'
import { columnText, oneOf, requiredColumnText } from './formats'
import { canonicalizeKeys } from './keys'
import { formatIssues, renderProblems } from './messages'
import { type ParseResult, success, unprocessable } from './result'

const EMAIL = /^[^\s@]+@[^\s@]+$/

const name = columnText
const requiredName = requiredColumnText

/** `POST /api/v1/users` body: `{"user":{"email"}}`. */
export const userRequestSchema = z
  .strictObject(
    {
      email: requiredName(320).refine((s) => EMAIL.test(s.trim()), {
        error: 'is not an email address',
      }),
    },
    { error: 'must be an object' },
  )
  .meta({
    id: 'tis.UserRequest',
    description: 'A user to create (application administrators only).',
  })

/** `POST /api/v1/projects` body: `{"project":{"name","integration_kind"}}`. */
export const projectRequestSchema = z
  .strictObject(
    {
      name: requiredName(200),
      integration_kind: oneOf(INTEGRATION_KINDS),
    },
    { error: 'must be an object' },
  )
  .meta({ id: 'tis.ProjectRequest', description: 'A project to create; the caller owns it.' })

/** `POST /api/v1/projects/:id/api_keys` body (optional): `{"api_key":{"name"}}`. */
export const apiKeyRequestSchema = z
  .strictObject({ name: name(200).optional() }, { error: 'must be an object' })
  .meta({ id: 'tis.ApiKeyRequest', description: 'A project API key to create.' })

/** `POST /api/v1/projects/:id/members` body: `{"member":{"email"}}`. */
export const memberRequestSchema = z
  .strictObject({ email: requiredName(320) }, { error: 'must be an object' })
  .meta({ id: 'tis.MemberRequest', description: 'An existing user to share the project with.' })

const positiveOrNull = (max: number) =>
  z
    .int({ error: 'must be an integer' })
    .min(1, { error: 'must be greater than or equal to 1' })
    .max(max, { error: `must be less than or equal to ${max}` })
    .nullable()
    .optional()

/**
 * `PUT /api/v1/projects/:id/rate_limits` body: `{"rate_limit":{"requests","period_seconds",
 * "auth_failure_requests"}}`. A field that is `null` or absent falls back to the configured
 * default; `{"rate_limit": null}` clears every override.
 */
export const rateLimitRequestSchema = z
  .strictObject(
    {
      requests: positiveOrNull(1_000_000_000),
      period_seconds: positiveOrNull(86_400),
      auth_failure_requests: positiveOrNull(1_000_000_000),
    },
    { error: 'must be an object' },
  )
  .meta({
    id: 'tis.RateLimitRequest',
    description: 'Project-level rate-limit overrides (application administrators only).',
  })

/**
 * `PUT /api/v1/projects/:id/retention` body: `{"retention":{"days"}}`: days to keep the
 * project's events, spans and check-ins (0: forever); null (or `{"retention": null}`) follows
 * the server default.
 */
export const retentionRequestSchema = z
  .strictObject(
    {
      days: z
        .int({ error: 'must be an integer' })
        .min(0, { error: 'must be greater than or equal to 0' })
        .max(36_500, { error: 'must be less than or equal to 36500' })
        .nullable()
        .optional(),
    },
    { error: 'must be an object' },
  )
  .meta({
    id: 'tis.RetentionRequest',
    description: "A project's own retention period in days (0 keeps forever; null: the default).",
  })

/** The most names `extra_fields` and `safe_fields` may each hold. */
export const MAX_SCRUBBING_FIELDS = 200
/** The longest such name. */
export const MAX_SCRUBBING_FIELD_LENGTH = 200

const fieldNames = z
  .array(
    z
      .string({ error: 'must be a string' })
      .trim()
      .min(1, { error: 'must not be empty' })
      .max(MAX_SCRUBBING_FIELD_LENGTH, {
        error: `must be at most ${MAX_SCRUBBING_FIELD_LENGTH} characters`,
      }),
    { error: 'must be an array of strings' },
  )
  .max(MAX_SCRUBBING_FIELDS, {
    error: `must hold at most ${MAX_SCRUBBING_FIELDS} names`,
  })

/**
 * `PUT /api/v1/projects/:id/data_scrubbing` body: `{"data_scrubbing":{"enabled",
 * "extra_fields","safe_fields","scrub_ip_addresses"}}`; an absent field keeps its value.
 */
export const dataScrubbingRequestSchema = z
  .strictObject(
    {
      enabled: z.boolean({ error: 'must be a boolean' }).optional(),
      extra_fields: fieldNames.optional(),
      safe_fields: fieldNames.optional(),
      scrub_ip_addresses: z.boolean({ error: 'must be a boolean' }).optional(),
    },
    { error: 'must be an object' },
  )
  .meta({
    id: 'tis.DataScrubbingRequest',
    description:
      "A project's data-scrubbing settings (docs/data-scrubbing.md); an absent field keeps its value.",
  })

const MANAGEMENT: Record<ManagementEnvelopeKey, z.ZodObject> = {
  user: userRequestSchema,
  project: projectRequestSchema,
  api_key: apiKeyRequestSchema,
  member: memberRequestSchema,
  rate_limit: rateLimitRequestSchema,
  retention: retentionRequestSchema,
  data_scrubbing: dataScrubbingRequestSchema,
}

/** Envelope keys of the management API. */
export type ManagementEnvelopeKey =
  | 'user'
  | 'project'
  | 'api_key'
  | 'member'
  | 'rate_limit'
  | 'retention'
  | 'data_scrubbing'

/** The parsed management request of each envelope. */
export interface ManagementRecords {
  user: { email: string }
  project: z.output<typeof projectRequestSchema>
  api_key: { name?: string | undefined }
  member: { email: string }
  rate_limit: {
    requests?: number | null | undefined
    period_seconds?: number | null | undefined
    auth_failure_requests?: number | null | undefined
  }
  retention: { days?: number | null | undefined }
  data_scrubbing: {
    enabled?: boolean | undefined
    extra_fields?: string[] | undefined
    safe_fields?: string[] | undefined
    scrub_ip_addresses?: boolean | undefined
  }
}

/** The fields of each management envelope, in documented order. */
export const MANAGEMENT_FIELDS = Object.fromEntries(
  Object.entries(MANAGEMENT).map(([key, schema]) => [key, Object.keys(schema.shape)]),
) as unknown as Record<ManagementEnvelopeKey, readonly string[]>

/**
 * Parses a management API body with the same envelope, naming and message rules as ingestion.
 * Emails are trimmed and lower-cased. Which bodies a route takes at all (no body, a `null`
 * envelope) is decided by `@tis/ingest` (`readManagementBody`) before the fields are parsed here.
 */
export function parseManagementEnvelope<K extends ManagementEnvelopeKey>(
  key: K,
  body: unknown,
): ParseResult<ManagementRecords[K]> {
  const unwrapped = unwrapEnvelope(body, key)
  if (!unwrapped.ok) return unwrapped
  const schema = MANAGEMENT[key]
  const parsed = schema.safeParse(
    canonicalizeKeys(unwrapped.value, { known: new Set(Object.keys(schema.shape)) }),
  )
  if (!parsed.success) {
    return unprocessable(
      renderProblems(formatIssues(parsed.error.issues), Object.keys(schema.shape)),
    )
  }
  const value = { ...parsed.data } as Record<string, unknown>
  if (typeof value['email'] === 'string') value['email'] = value['email'].trim().toLowerCase()
  return success(value as ManagementRecords[K])
}
