import * as z from 'zod'
import { EVENT_TYPES, INTEGRATION_KINDS, MOBILE_PLATFORMS } from '../enums'
import { component, dateTimeField, uuidField } from './common'

// The answers of the management API: one zod schema per answer, from which the
// OpenAPI document (management-operations.ts), the serialisers' types in @tis/ingest and the
// dashboard's and CLI's types come.

/** A project (`projectJson`). */
export const projectSchema = component(
  'Project',
  z.strictObject({
    id: uuidField,
    name: z.string(),
    integration_kind: z.enum(INTEGRATION_KINDS),
    status: z.enum(['active', 'archived']),
    owner_id: uuidField,
    created_at: dateTimeField,
    archived_at: dateTimeField.nullable(),
    number: z.int().nullable().meta({
      description: "The project's number: the project part of its Sentry DSN.",
    }),
    dsn: z.string().nullable().meta({
      description:
        "The DSN Sentry's SDKs take to send to this project (`<scheme>://<key>@<host>/<number>`; the key is public, as Sentry's are); null when the server knows no public URL.",
    }),
  }),
)
/** A project as the management API answers it. */
export type Project = z.output<typeof projectSchema>

/** A project API key, never its token (`apiKeyJson`). */
export const apiKeySchema = component(
  'ApiKey',
  z.strictObject({
    id: uuidField,
    name: z.string(),
    created_at: dateTimeField,
    revoked_at: dateTimeField.nullable(),
  }),
)
/** A project API key as the management API answers it. */
export type ApiKey = z.output<typeof apiKeySchema>

/** Who may see a project: its owner or a member. */
export const memberSchema = component(
  'Member',
  z.strictObject({
    user_id: uuidField,
    email: z.string(),
    role: z.enum(['owner', 'member']),
    added_at: dateTimeField.meta({
      description: 'When the user was added; the owner: when the project was created.',
    }),
  }),
)
/** A member of a project as `GET …/members` lists it. */
export type Member = z.output<typeof memberSchema>

/** The answer of `POST …/members`: the membership made (or already there). */
export const memberAddedSchema = component(
  'MemberAdded',
  z.strictObject({ project_id: uuidField, user_id: uuidField, email: z.string() }),
  'The project shared and the user it is shared with.',
)
/** A membership as `POST …/members` answers it. */
export type MemberAdded = z.output<typeof memberAddedSchema>

/** A user as the answers that create or rotate its token show it. */
export const userSchema = component(
  'User',
  z.strictObject({ id: uuidField, email: z.string(), admin: z.boolean() }),
  'A user; `admin`: an application administrator (`SERVICE_ADMIN_EMAILS`).',
)
/** A user as the management and account answers show it. */
export type User = z.output<typeof userSchema>

const positive = z.int().min(1)
const override = z.int().nullable()

/** A project's effective rate limits (`rateLimitJson`). */
export const rateLimitsSchema = component(
  'RateLimits',
  z.strictObject({
    requests: positive,
    period_seconds: positive,
    auth_failure_requests: positive,
    overrides: z.strictObject({
      requests: override,
      period_seconds: override,
      auth_failure_requests: override,
    }),
  }),
  'Effective limits of a project: its overrides where set, else the server defaults; `overrides` shows which are set.',
)
/** A project's rate limits as the management API answers them. */
export type RateLimits = z.output<typeof rateLimitsSchema>

/** A live mobile ingest token, never its plaintext (`mobileTokenJson`). */
export const mobileTokenSchema = component(
  'MobileToken',
  z.strictObject({
    id: uuidField,
    parent_key_id: uuidField.nullable(),
    platform: z.enum(MOBILE_PLATFORMS),
    service: z.string(),
    environment: z.string(),
    release: z.string().nullable(),
    session_id: z.string().nullable(),
    allowed_event_types: z.array(z.enum(EVENT_TYPES)),
    created_at: dateTimeField,
    expires_at: dateTimeField,
  }),
  'A live mobile ingest token (never its plaintext).',
)
/** A mobile ingest token as `GET …/mobile_tokens` lists it. */
export type MobileToken = z.output<typeof mobileTokenSchema>

// The bodies of the management answers: each wraps the objects above in its envelope key.

/** `GET /api/v1/projects/{id}` and every answer with one project. */
export const projectAnswerSchema = z.strictObject({ project: projectSchema })
/** The body of that answer. */
export type ProjectAnswer = z.output<typeof projectAnswerSchema>
/** `GET /api/v1/projects`. */
export const projectListSchema = z.strictObject({ projects: z.array(projectSchema) })
/** The body of that answer. */
export type ProjectList = z.output<typeof projectListSchema>
/** `POST /api/v1/users`. */
export const createdUserSchema = z.strictObject({ user: userSchema, access_token: z.string() })
/** The body of that answer. */
export type CreatedUser = z.output<typeof createdUserSchema>
/** `GET …/api_keys`. */
export const apiKeyListSchema = z.strictObject({ api_keys: z.array(apiKeySchema) })
/** The body of that answer. */
export type ApiKeyList = z.output<typeof apiKeyListSchema>
/** `POST …/api_keys`: the key and its token, shown once. */
export const createdApiKeySchema = z.strictObject({ api_key: apiKeySchema, token: z.string() })
/** The body of that answer. */
export type CreatedApiKey = z.output<typeof createdApiKeySchema>
/** `GET …/members`. */
export const memberListSchema = z.strictObject({ members: z.array(memberSchema) })
/** The body of that answer. */
export type MemberList = z.output<typeof memberListSchema>
/** `POST …/members`. */
export const memberAddedAnswerSchema = z.strictObject({ member: memberAddedSchema })
/** The body of that answer. */
export type MemberAddedAnswer = z.output<typeof memberAddedAnswerSchema>
/** `GET …/mobile_tokens`. */
export const mobileTokenListSchema = z.strictObject({ mobile_tokens: z.array(mobileTokenSchema) })
/** The body of that answer. */
export type MobileTokenList = z.output<typeof mobileTokenListSchema>
/** `GET` and `PUT …/rate_limits`. */
export const rateLimitAnswerSchema = z.strictObject({ rate_limit: rateLimitsSchema })
/** The body of that answer. */
export type RateLimitAnswer = z.output<typeof rateLimitAnswerSchema>
