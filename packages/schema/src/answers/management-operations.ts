import * as z from 'zod'
import {
  apiKeyRequestSchema,
  dataScrubbingRequestSchema,
  memberRequestSchema,
  projectRequestSchema,
  rateLimitRequestSchema,
  retentionRequestSchema,
  userRequestSchema,
} from '../management'
import { dataScrubbingAnswerSchema } from './data-scrubbing-answers'
import { errorResponse } from './error-responses'
import {
  apiKeyListSchema,
  createdApiKeySchema,
  createdUserSchema,
  memberAddedAnswerSchema,
  memberListSchema,
  mobileTokenListSchema,
  projectAnswerSchema,
  projectListSchema,
  rateLimitAnswerSchema,
} from './management-answers'
import type { ApiOperation, ApiResponse } from './operations'
import { retentionAnswerSchema } from './retention-answers'

// The management API's operations (section 5): the OpenAPI paths are generated from this table.

const DESCRIPTIONS: Record<number, string> = {
  400: 'The body is missing, not valid JSON or not a JSON object, or its envelope is missing, null, empty or not an object; the message names the envelope.',
  401: 'The access token is missing or unknown.',
  403: 'The user may see the project but not manage it, or is not an administrator.',
  404: 'No such project or key, or the user may not see it.',
  422: 'The envelope failed validation or names none of its fields; every problem is listed.',
}
const EXAMPLES: Record<number, string> = {
  400: 'param is missing or the value is empty: project',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not found',
}
const errors = (...statuses: number[]): Record<number, ApiResponse> =>
  Object.fromEntries(statuses.map((s) => [s, errorResponse(s, DESCRIPTIONS[s] ?? '', EXAMPLES[s])]))

/** `{"<key>": …}`, with its UPPER_CASE alias: how every management request body is sent. */
const envelope = (key: string, schema: z.ZodType) =>
  z.object({ [key]: schema.optional(), [key.toUpperCase()]: schema.optional() })
const ok = (description: string, body: z.ZodType): ApiResponse => ({ description, body })
const REVOKED = { 204: { description: 'Revoked (idempotent).' }, ...errors(401, 404) }

type Row = Omit<ApiOperation, 'tag'>

const PROJECT_ROWS: readonly Row[] = [
  {
    method: 'post',
    path: '/api/v1/users',
    id: 'createUser',
    summary: 'Create a user (administrators only)',
    body: envelope('user', userRequestSchema),
    responses: {
      201: ok('The user and its access token, shown once.', createdUserSchema),
      ...errors(400, 401, 403, 422),
    },
  },
  {
    method: 'get',
    path: '/api/v1/projects',
    id: 'listProjects',
    summary: 'Projects the user owns or shares (all for administrators)',
    responses: { 200: ok('The projects, oldest first.', projectListSchema), ...errors(401) },
  },
  {
    method: 'post',
    path: '/api/v1/projects',
    id: 'createProject',
    summary: 'Create a project owned by the user',
    body: envelope('project', projectRequestSchema),
    responses: { 201: ok('The project.', projectAnswerSchema), ...errors(400, 401, 422) },
  },
  {
    method: 'get',
    path: '/api/v1/projects/{id}',
    id: 'getProject',
    summary: 'Show a project',
    responses: { 200: ok('The project.', projectAnswerSchema), ...errors(401, 404) },
  },
  {
    method: 'get',
    path: '/api/v1/projects/{id}/api_keys',
    id: 'listApiKeys',
    summary: "List a project's API keys (never their tokens)",
    responses: { 200: ok('The keys.', apiKeyListSchema), ...errors(401, 404) },
  },
  {
    method: 'post',
    path: '/api/v1/projects/{id}/api_keys',
    id: 'createApiKey',
    summary: 'Create a project API key',
    body: envelope('api_key', apiKeyRequestSchema).optional(),
    responses: {
      201: ok('The key and its token, shown once.', createdApiKeySchema),
      ...errors(400, 401, 404, 422),
    },
  },
  {
    method: 'delete',
    path: '/api/v1/projects/{id}/api_keys/{key_id}',
    id: 'revokeApiKey',
    summary: 'Revoke a project API key',
    responses: REVOKED,
  },
  {
    method: 'post',
    path: '/api/v1/projects/{id}/archive',
    id: 'archiveProject',
    summary: 'Archive a project; its keys stop working',
    responses: { 200: ok('The project.', projectAnswerSchema), ...errors(401, 403, 404) },
  },
  {
    method: 'post',
    path: '/api/v1/projects/{id}/restore',
    id: 'restoreProject',
    summary: 'Restore an archived project; create a new key after',
    responses: { 200: ok('The project.', projectAnswerSchema), ...errors(401, 403, 404) },
  },
]

const SHARING_ROWS: readonly Row[] = [
  {
    method: 'get',
    path: '/api/v1/projects/{id}/members',
    id: 'listMembers',
    summary: 'List who may see a project: the owner, then members',
    responses: {
      200: ok('The owner first, then members in the order they were added.', memberListSchema),
      ...errors(401, 404),
    },
  },
  {
    method: 'post',
    path: '/api/v1/projects/{id}/members',
    id: 'addMember',
    summary: 'Share a project with an existing user',
    body: envelope('member', memberRequestSchema),
    responses: {
      201: ok('Added.', memberAddedAnswerSchema),
      200: ok('Already a member.', memberAddedAnswerSchema),
      ...errors(400, 401, 403, 404, 422),
    },
  },
  {
    method: 'get',
    path: '/api/v1/projects/{id}/mobile_tokens',
    id: 'listMobileTokens',
    summary: "List a project's live mobile ingest tokens",
    responses: {
      200: ok(
        'Tokens not revoked, not expired, whose parent key is not revoked.',
        mobileTokenListSchema,
      ),
      ...errors(401, 404),
    },
  },
  {
    method: 'delete',
    path: '/api/v1/projects/{id}/mobile_tokens/{token_id}',
    id: 'revokeMobileToken',
    summary: 'Revoke a mobile ingest token',
    responses: REVOKED,
  },
  {
    method: 'get',
    path: '/api/v1/projects/{id}/rate_limits',
    id: 'getRateLimits',
    summary: "Show a project's effective rate limits",
    responses: { 200: ok('The effective limits.', rateLimitAnswerSchema), ...errors(401, 404) },
  },
  {
    method: 'put',
    path: '/api/v1/projects/{id}/rate_limits',
    id: 'setRateLimits',
    summary: 'Set project-level rate-limit overrides (administrators)',
    description:
      'Application administrators only (`SERVICE_ADMIN_EMAILS`); owners and members get 403. A field that is null or absent uses the server default; `{"rate_limit": null}` clears every override (a body of `null` or `{}`, or an empty envelope, is a 400). Takes effect on every instance within a second.',
    body: envelope('rate_limit', rateLimitRequestSchema),
    responses: {
      200: ok('The effective limits.', rateLimitAnswerSchema),
      ...errors(400, 401, 403, 404, 422),
    },
  },
  {
    method: 'get',
    path: '/api/v1/projects/{id}/retention',
    id: 'getRetention',
    summary: "Show a project's retention period and disk use",
    responses: { 200: ok('The period and the usage.', retentionAnswerSchema), ...errors(401, 404) },
  },
  {
    method: 'put',
    path: '/api/v1/projects/{id}/retention',
    id: 'setRetention',
    summary: "Set a project's own retention period",
    description:
      'The owner may shorten the period below the server default (SERVICE_RETENTION_DAYS) or return to it (`{"retention": {"days": null}}` or `{"retention": null}`); keeping data longer than the default, or forever (0), needs an application administrator (403 otherwise). The next retention pass applies it.',
    body: envelope('retention', retentionRequestSchema),
    responses: {
      200: ok('The period and the usage.', retentionAnswerSchema),
      ...errors(400, 401, 403, 404, 422),
    },
  },
  {
    method: 'get',
    path: '/api/v1/projects/{id}/data_scrubbing',
    id: 'getDataScrubbing',
    summary: "Show a project's data-scrubbing settings",
    description:
      'Anyone who sees the project. A project that never set them has the defaults: on, no extra or safe fields, IP addresses kept.',
    responses: {
      200: ok('The settings in force.', dataScrubbingAnswerSchema),
      ...errors(401, 404),
    },
  },
  {
    method: 'put',
    path: '/api/v1/projects/{id}/data_scrubbing',
    id: 'setDataScrubbing',
    summary: "Set a project's data-scrubbing settings",
    description:
      'The owner or an application administrator (members get 403). A field left out keeps its value. A body that is not `{"data_scrubbing": {…}}` with these fields, or a field of the wrong type, is a 422 naming it and changes nothing. The settings apply to events accepted afterwards: at once on the instance that took the change, on the others within the credential cache\'s second. Events stored before keep what they were stored with.',
    body: envelope('data_scrubbing', dataScrubbingRequestSchema),
    responses: {
      200: ok('The settings in force.', dataScrubbingAnswerSchema),
      ...errors(400, 401, 403, 404, 422),
    },
  },
]

/** The management API's operations (users, projects, API keys, members, tokens, limits). */
export const MANAGEMENT_OPERATIONS: readonly ApiOperation[] = [
  ...PROJECT_ROWS,
  ...SHARING_ROWS,
].map((row) => ({ ...row, tag: 'management' }))
