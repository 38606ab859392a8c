import {
  apiKeyRequestSchema,
  dataScrubbingRequestSchema,
  memberRequestSchema,
  projectRequestSchema,
  rateLimitRequestSchema,
  retentionRequestSchema,
  userRequestSchema,
} from '../management'
import type { OpenApiExtension } from '../openapi'
import { dataScrubbingSchema } from './data-scrubbing-answers'
import { healthSchema, readySchema, unavailableSchema } from './health-answers'
import {
  apiKeySchema,
  memberAddedSchema,
  memberSchema,
  mobileTokenSchema,
  projectSchema,
  rateLimitsSchema,
  userSchema,
} from './management-answers'
import { MANAGEMENT_OPERATIONS } from './management-operations'
import { type ApiOperation, operationPaths } from './operations'
import { retentionSchema } from './retention-answers'

/** `GET /health` and `GET /health/ready`: no credential. */
export const HEALTH_OPERATIONS: readonly ApiOperation[] = [
  {
    method: 'get',
    path: '/health',
    id: 'health',
    tag: 'health',
    summary: 'Liveness of the server',
    security: [],
    responses: { 200: { description: 'The server is up.', body: healthSchema } },
  },
  {
    method: 'get',
    path: '/health/ready',
    id: 'healthReady',
    tag: 'health',
    summary: 'Readiness: the primary store answers a trivial query within 2 s',
    description:
      'For load balancers and readiness probes. Answers are reused for about 1 s; never waits longer than the 2 s timeout.',
    security: [],
    responses: {
      200: { description: 'The primary store answered.', body: readySchema },
      503: {
        description:
          'The primary store failed the query or did not answer in time; retry after `Retry-After` seconds.',
        headers: { 'Retry-After': { schema: { type: 'integer' } } },
        body: unavailableSchema,
      },
    },
  },
]

/**
 * The management API, `/health` and `/health/ready` as an OpenAPI extension, merged into the
 * core document by `createOpenApiDocument({ extensions })`, generated from
 * {@link MANAGEMENT_OPERATIONS}. Management calls authenticate with a user access token
 * (`Authorization: Bearer tis_user_…`), not a project API key.
 */
export const MANAGEMENT_OPENAPI: OpenApiExtension = {
  tags: [{ name: 'management', description: 'Users, projects, API keys and members' }],
  securitySchemes: {
    userToken: {
      type: 'http',
      scheme: 'bearer',
      description:
        'Authorization: Bearer <user access token> (tis_user_…); project API keys are refused',
    },
  },
  schemas: {
    UserRequest: userRequestSchema,
    ProjectRequest: projectRequestSchema,
    ApiKeyRequest: apiKeyRequestSchema,
    MemberRequest: memberRequestSchema,
    RateLimitRequest: rateLimitRequestSchema,
    RateLimits: rateLimitsSchema,
    RetentionRequest: retentionRequestSchema,
    Retention: retentionSchema,
    DataScrubbingRequest: dataScrubbingRequestSchema,
    DataScrubbing: dataScrubbingSchema,
    MobileToken: mobileTokenSchema,
    Project: projectSchema,
    ApiKey: apiKeySchema,
    Member: memberSchema,
    MemberAdded: memberAddedSchema,
    User: userSchema,
  },
  paths: operationPaths([...HEALTH_OPERATIONS, ...MANAGEMENT_OPERATIONS]),
}
