import type { OpenApiExtension, OpenApiObject } from '@tis/schema'

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })
const json = (schema: OpenApiObject) => ({ 'application/json': { schema } })
const dateTime = { type: 'string', format: 'date-time' }
const UNAUTHORIZED = {
  description: 'The access token is missing or unknown (or was replaced by a rotation).',
  content: json({ ...ref('Error'), example: { error: 'Unauthorized' } }),
}
const answer = (description: string, schema: OpenApiObject) => ({
  description,
  content: json(schema),
})
const operation = (id: string, summary: string, rest: OpenApiObject) => ({
  operationId: id,
  tags: ['account'],
  summary,
  security: [{ userToken: [] }],
  ...rest,
})

const SCHEMAS: Record<string, OpenApiObject> = {
  Session: {
    type: 'object',
    description:
      'A dashboard session of the user: never its secret id (the cookie holds that; the server keeps only its SHA-256 digest).',
    required: ['id', 'created_at', 'last_seen_at', 'expires_at', 'user_agent', 'ip'],
    properties: {
      id: { type: 'string', format: 'uuid', description: 'A public handle; it cannot sign in.' },
      created_at: { ...dateTime, description: 'Signed in at.' },
      last_seen_at: {
        ...dateTime,
        description: 'Last request, updated at most once a minute.',
      },
      expires_at: {
        ...dateTime,
        description:
          'When the session ends unless used again: the earlier of the idle and the absolute expiry.',
      },
      user_agent: { type: ['string', 'null'], description: 'The browser at sign-in.' },
      ip: { type: ['string', 'null'], description: 'The client address at sign-in.' },
    },
  },
}

/**
 * The signed-in user's own account (`/api/v1/users/me/…`): dashboard sessions and access-token
 * rotation, authenticated with the user's access token like the management API.
 */
export const ACCOUNT_OPENAPI: OpenApiExtension = {
  tags: [
    {
      name: 'account',
      description: "The caller's own dashboard sessions and access token (docs/security.md)",
    },
  ],
  schemas: SCHEMAS,
  paths: {
    '/api/v1/users/me/sessions': {
      get: operation('listSessions', 'List your live dashboard sessions', {
        responses: {
          '200': answer('Live sessions, most recently seen first.', {
            type: 'object',
            required: ['sessions'],
            properties: { sessions: { type: 'array', items: ref('Session') } },
          }),
          '401': UNAUTHORIZED,
        },
      }),
      delete: operation('endSessions', 'Sign out everywhere: end every dashboard session', {
        description:
          'Ends every dashboard session of the user at once, on every server instance; the access token keeps working.',
        responses: {
          '200': answer('The sessions ended.', {
            type: 'object',
            required: ['sessions_ended'],
            properties: { sessions_ended: { type: 'integer', minimum: 0 } },
          }),
          '401': UNAUTHORIZED,
        },
      }),
    },
    '/api/v1/users/me/token': {
      post: operation('rotateToken', 'Replace your access token', {
        description:
          'Creates a new access token, answered only here, and deletes every other access token of the user in the same transaction: the old token gets 401 from the next request on, and every dashboard session of the user ends. Takes no body.',
        responses: {
          '201': answer('The new access token, shown once.', {
            type: 'object',
            required: ['user', 'access_token', 'sessions_ended'],
            properties: {
              user: {
                type: 'object',
                required: ['id', 'email', 'admin'],
                properties: {
                  id: { type: 'string', format: 'uuid' },
                  email: { type: 'string' },
                  admin: { type: 'boolean' },
                },
              },
              access_token: { type: 'string', pattern: '^tis_user_' },
              sessions_ended: { type: 'integer', minimum: 0 },
            },
          }),
          '401': UNAUTHORIZED,
        },
      }),
    },
  },
}
