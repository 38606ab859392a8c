import {
  apiKeyRequestSchema,
  EVENT_TYPES,
  INTEGRATION_KINDS,
  MOBILE_PLATFORMS,
  memberRequestSchema,
  type OpenApiExtension,
  type OpenApiObject,
  projectRequestSchema,
  rateLimitRequestSchema,
  userRequestSchema,
} from '@tis/schema'

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })
const json = (schema: OpenApiObject) => ({ 'application/json': { schema } })
const dateTime = { type: 'string', format: 'date-time' }
const uuid = { type: 'string', format: 'uuid' }

const SCHEMAS: OpenApiExtension['schemas'] = {
  UserRequest: userRequestSchema,
  ProjectRequest: projectRequestSchema,
  ApiKeyRequest: apiKeyRequestSchema,
  MemberRequest: memberRequestSchema,
  RateLimitRequest: rateLimitRequestSchema,
  RateLimits: {
    type: 'object',
    description:
      'Effective limits of a project: its overrides where set, else the server defaults; `overrides` shows which are set.',
    required: ['requests', 'period_seconds', 'auth_failure_requests', 'overrides'],
    properties: {
      requests: { type: 'integer', minimum: 1 },
      period_seconds: { type: 'integer', minimum: 1 },
      auth_failure_requests: { type: 'integer', minimum: 1 },
      overrides: {
        type: 'object',
        properties: {
          requests: { type: ['integer', 'null'] },
          period_seconds: { type: ['integer', 'null'] },
          auth_failure_requests: { type: ['integer', 'null'] },
        },
      },
    },
  },
  MobileToken: {
    type: 'object',
    description: 'A live mobile ingest token (never its plaintext).',
    required: [
      'id',
      'parent_key_id',
      'platform',
      'service',
      'environment',
      'release',
      'session_id',
      'allowed_event_types',
      'created_at',
      'expires_at',
    ],
    properties: {
      id: uuid,
      parent_key_id: { anyOf: [uuid, { type: 'null' }] },
      platform: { type: 'string', enum: [...MOBILE_PLATFORMS] },
      service: { type: 'string' },
      environment: { type: 'string' },
      release: { type: ['string', 'null'] },
      session_id: { type: ['string', 'null'] },
      allowed_event_types: { type: 'array', items: { type: 'string', enum: [...EVENT_TYPES] } },
      created_at: dateTime,
      expires_at: dateTime,
    },
  },
  Project: {
    type: 'object',
    required: ['id', 'name', 'integration_kind', 'status', 'owner_id', 'created_at', 'archived_at'],
    properties: {
      id: uuid,
      name: { type: 'string' },
      integration_kind: { type: 'string', enum: [...INTEGRATION_KINDS] },
      status: { type: 'string', enum: ['active', 'archived'] },
      owner_id: uuid,
      created_at: dateTime,
      archived_at: { anyOf: [dateTime, { type: 'null' }] },
    },
  },
  ApiKey: {
    type: 'object',
    required: ['id', 'name', 'created_at', 'revoked_at'],
    properties: {
      id: uuid,
      name: { type: 'string' },
      created_at: dateTime,
      revoked_at: { anyOf: [dateTime, { type: 'null' }] },
    },
  },
  Member: {
    type: 'object',
    required: ['user_id', 'email', 'role', 'added_at'],
    properties: {
      user_id: uuid,
      email: { type: 'string' },
      role: { type: 'string', enum: ['owner', 'member'] },
      added_at: {
        ...dateTime,
        description: 'When the user was added; the owner: when the project was created.',
      },
    },
  },
}

const USER_AUTH = [{ userToken: [] }]
const PROJECT_ID = { name: 'id', in: 'path', required: true, schema: uuid }
const KEY_ID = { name: 'key_id', in: 'path', required: true, schema: uuid }
const TOKEN_ID = { name: 'token_id', in: 'path', required: true, schema: uuid }
const errors = (...statuses: number[]) =>
  Object.fromEntries(
    statuses.map((status) => {
      const body =
        status === 422 ? ref('ValidationErrors') : { ...ref('Error'), example: EXAMPLES[status] }
      return [String(status), { description: DESCRIPTIONS[status], content: json(body) }]
    }),
  )
const DESCRIPTIONS: Record<number, string> = {
  400: 'The body is missing, not valid JSON or not a JSON object, or its envelope is missing, null, empty or not an object; the message names the envelope.',
  401: 'The access token is missing or unknown.',
  403: 'The user may see the project but not manage it, or is not an administrator.',
  404: 'No such project or key, or the user may not see it.',
  422: 'The envelope failed validation or names none of its fields; every problem is listed.',
}
const EXAMPLES: Record<number, OpenApiObject> = {
  400: { error: 'param is missing or the value is empty: project' },
  401: { error: 'Unauthorized' },
  403: { error: 'Forbidden' },
  404: { error: 'Not found' },
}
const envelope = (key: string, schema: string, required = true) => ({
  required,
  content: json({
    type: 'object',
    properties: { [key]: ref(schema), [key.toUpperCase()]: ref(schema) },
  }),
})
const ok = (status: number, description: string, properties: OpenApiObject) => ({
  [String(status)]: { description, content: json({ type: 'object', properties }) },
})
const operation = (id: string, summary: string, rest: OpenApiObject) => ({
  operationId: id,
  tags: ['management'],
  summary,
  security: USER_AUTH,
  ...rest,
})

/**
 * The management API, `/health` and `/health/ready` as an OpenAPI extension, merged into the core document by
 * `createOpenApiDocument({ extensions })`. Management calls authenticate with a user access
 * token (`Authorization: Bearer tis_user_…`), not a project API key.
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
  schemas: SCHEMAS,
  paths: {
    '/health': {
      get: {
        operationId: 'health',
        tags: ['health'],
        summary: 'Liveness of the server',
        security: [],
        responses: ok(200, 'The server is up.', { status: { const: 'ok' } }),
      },
    },
    '/health/ready': {
      get: {
        operationId: 'healthReady',
        tags: ['health'],
        summary: 'Readiness: the primary store answers a trivial query within 2 s',
        description:
          'For load balancers and readiness probes. Answers are reused for about 1 s; never waits longer than the 2 s timeout.',
        security: [],
        responses: {
          ...ok(200, 'The primary store answered.', {
            status: {
              enum: ['ok', 'lagging'],
              description:
                '`lagging` when the projection is further behind than `SERVICE_PROJECTION_MAX_LAG_SECONDS` (acceptance still works).',
            },
            store: { const: 'ok' },
            projection: {
              type: 'object',
              description:
                'How far the read model is behind acceptance (docs/write-path.md); absent when the store has no ingest log.',
              properties: {
                records: {
                  type: 'integer',
                  description: 'Acknowledged records not projected yet (counted up to a cap).',
                },
                seconds: { type: 'number', description: 'Age of the oldest of them.' },
                max_seconds: { type: 'number' },
                lagging: { type: 'boolean' },
                measured_at: {
                  type: 'string',
                  format: 'date-time',
                  description: 'When the lag was measured: a measurement is reused for about 1 s.',
                },
              },
            },
          }),
          '503': {
            description:
              'The primary store failed the query or did not answer in time; retry after `Retry-After` seconds.',
            headers: { 'Retry-After': { schema: { type: 'integer' } } },
            content: json({
              type: 'object',
              properties: {
                status: { const: 'unavailable' },
                store: { const: 'unreachable' },
                message: { type: 'string' },
              },
            }),
          },
        },
      },
    },
    '/api/v1/users': {
      post: operation('createUser', 'Create a user (administrators only)', {
        requestBody: envelope('user', 'UserRequest'),
        responses: {
          ...ok(201, 'The user and its access token, shown once.', {
            user: { type: 'object' },
            access_token: { type: 'string' },
          }),
          ...errors(400, 401, 403, 422),
        },
      }),
    },
    '/api/v1/projects': {
      get: operation('listProjects', 'Projects the user owns or shares (all for administrators)', {
        responses: {
          ...ok(200, 'The projects, oldest first.', {
            projects: { type: 'array', items: ref('Project') },
          }),
          ...errors(401),
        },
      }),
      post: operation('createProject', 'Create a project owned by the user', {
        requestBody: envelope('project', 'ProjectRequest'),
        responses: {
          ...ok(201, 'The project.', { project: ref('Project') }),
          ...errors(400, 401, 422),
        },
      }),
    },
    '/api/v1/projects/{id}': {
      get: operation('getProject', 'Show a project', {
        parameters: [PROJECT_ID],
        responses: { ...ok(200, 'The project.', { project: ref('Project') }), ...errors(401, 404) },
      }),
    },
    '/api/v1/projects/{id}/api_keys': {
      get: operation('listApiKeys', "List a project's API keys (never their tokens)", {
        parameters: [PROJECT_ID],
        responses: {
          ...ok(200, 'The keys.', { api_keys: { type: 'array', items: ref('ApiKey') } }),
          ...errors(401, 404),
        },
      }),
      post: operation('createApiKey', 'Create a project API key', {
        parameters: [PROJECT_ID],
        requestBody: envelope('api_key', 'ApiKeyRequest', false),
        responses: {
          ...ok(201, 'The key and its token, shown once.', {
            api_key: ref('ApiKey'),
            token: { type: 'string' },
          }),
          ...errors(400, 401, 404, 422),
        },
      }),
    },
    '/api/v1/projects/{id}/api_keys/{key_id}': {
      delete: operation('revokeApiKey', 'Revoke a project API key', {
        parameters: [PROJECT_ID, KEY_ID],
        responses: { '204': { description: 'Revoked (idempotent).' }, ...errors(401, 404) },
      }),
    },
    '/api/v1/projects/{id}/archive': {
      post: operation('archiveProject', 'Archive a project; its keys stop working', {
        parameters: [PROJECT_ID],
        responses: {
          ...ok(200, 'The project.', { project: ref('Project') }),
          ...errors(401, 403, 404),
        },
      }),
    },
    '/api/v1/projects/{id}/restore': {
      post: operation('restoreProject', 'Restore an archived project; create a new key after', {
        parameters: [PROJECT_ID],
        responses: {
          ...ok(200, 'The project.', { project: ref('Project') }),
          ...errors(401, 403, 404),
        },
      }),
    },
    '/api/v1/projects/{id}/members': {
      get: operation('listMembers', 'List who may see a project: the owner, then members', {
        parameters: [PROJECT_ID],
        responses: {
          ...ok(200, 'The owner first, then members in the order they were added.', {
            members: { type: 'array', items: ref('Member') },
          }),
          ...errors(401, 404),
        },
      }),
      post: operation('addMember', 'Share a project with an existing user', {
        parameters: [PROJECT_ID],
        requestBody: envelope('member', 'MemberRequest'),
        responses: {
          ...ok(201, 'Added.', { member: { type: 'object' } }),
          ...ok(200, 'Already a member.', { member: { type: 'object' } }),
          ...errors(400, 401, 403, 404, 422),
        },
      }),
    },
    '/api/v1/projects/{id}/mobile_tokens': {
      get: operation('listMobileTokens', "List a project's live mobile ingest tokens", {
        parameters: [PROJECT_ID],
        responses: {
          ...ok(200, 'Tokens not revoked, not expired, whose parent key is not revoked.', {
            mobile_tokens: { type: 'array', items: ref('MobileToken') },
          }),
          ...errors(401, 404),
        },
      }),
    },
    '/api/v1/projects/{id}/mobile_tokens/{token_id}': {
      delete: operation('revokeMobileToken', 'Revoke a mobile ingest token', {
        parameters: [PROJECT_ID, TOKEN_ID],
        responses: { '204': { description: 'Revoked (idempotent).' }, ...errors(401, 404) },
      }),
    },
    '/api/v1/projects/{id}/rate_limits': {
      get: operation('getRateLimits', "Show a project's effective rate limits", {
        parameters: [PROJECT_ID],
        responses: {
          ...ok(200, 'The effective limits.', { rate_limit: ref('RateLimits') }),
          ...errors(401, 404),
        },
      }),
      put: operation('setRateLimits', 'Set project-level rate-limit overrides (administrators)', {
        description:
          'Application administrators only (`SERVICE_ADMIN_EMAILS`); owners and members get 403. A field that is null or absent uses the server default; `{"rate_limit": null}` clears every override (a body of `null` or `{}`, or an empty envelope, is a 400). Takes effect on every instance within a second.',
        parameters: [PROJECT_ID],
        requestBody: envelope('rate_limit', 'RateLimitRequest'),
        responses: {
          ...ok(200, 'The effective limits.', { rate_limit: ref('RateLimits') }),
          ...errors(400, 401, 403, 404, 422),
        },
      }),
    },
  },
}
