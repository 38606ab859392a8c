import type { OpenApiExtension } from '../openapi'
import {
  rotatedTokenSchema,
  sessionListSchema,
  sessionSchema,
  sessionsEndedSchema,
} from './account-answers'
import { errorResponse } from './error-responses'
import { type ApiOperation, operationPaths } from './operations'

const UNAUTHORIZED = errorResponse(
  401,
  'The access token is missing or unknown (or was replaced by a rotation).',
  'Unauthorized',
)

/** The signed-in user's sessions and access-token rotation. */
export const ACCOUNT_OPERATIONS: readonly ApiOperation[] = [
  {
    method: 'get',
    path: '/api/v1/users/me/sessions',
    id: 'listSessions',
    tag: 'account',
    summary: 'List your live dashboard sessions',
    responses: {
      200: { description: 'Live sessions, most recently seen first.', body: sessionListSchema },
      401: UNAUTHORIZED,
    },
  },
  {
    method: 'delete',
    path: '/api/v1/users/me/sessions',
    id: 'endSessions',
    tag: 'account',
    summary: 'Sign out everywhere: end every dashboard session',
    description:
      'Ends every dashboard session of the user at once, on every server instance; the access token keeps working.',
    responses: {
      200: { description: 'The sessions ended.', body: sessionsEndedSchema },
      401: UNAUTHORIZED,
    },
  },
  {
    method: 'post',
    path: '/api/v1/users/me/token',
    id: 'rotateToken',
    tag: 'account',
    summary: 'Replace your access token',
    description:
      'Creates a new access token, answered only here, and deletes every other access token of the user in the same transaction: the old token gets 401 from the next request on, and every dashboard session of the user ends. Takes no body.',
    responses: {
      201: { description: 'The new access token, shown once.', body: rotatedTokenSchema },
      401: UNAUTHORIZED,
    },
  },
]

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
  schemas: { Session: sessionSchema },
  paths: operationPaths(ACCOUNT_OPERATIONS),
}
