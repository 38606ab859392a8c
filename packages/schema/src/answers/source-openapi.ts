import * as z from 'zod'
import type { OpenApiExtension } from '../openapi'
import { component } from './common'
import { errorResponse } from './error-responses'
import { type ApiOperation, operationPaths } from './operations'
import {
  DEFAULT_CONTEXT_LINES,
  frameSchema,
  frameSourceExcerptSchema,
  frameSourceFailureSchema,
  MAX_CONTEXT_LINES,
  sourceCommitSchema,
  sourceSettingsAnswerSchema,
  sourceSettingsSchema,
} from './source-answers'

/**
 * `PUT …/source_settings` body, for the document: `@tis/ingest` (`createSourceSettingsApi`)
 * validates it with its own messages.
 */
export const sourceSettingsRequestSchema = component(
  'SourceSettingsRequest',
  z.strictObject({
    github_token: z.string().nullable().optional().meta({
      description:
        'A GitHub token with Contents: read (fine-grained) or `repo` (classic). Stored encrypted; needs SERVICE_SECRET_KEY on the server. Never shown again.',
    }),
    path_prefix: z.string().nullable().optional().meta({
      description:
        'Stripped from absolute paths and URLs of frames to get repository paths, e.g. `/app/` for `/app/src/x.ts` → `src/x.ts`.',
    }),
    context_lines: z
      .int()
      .min(0)
      .max(MAX_CONTEXT_LINES)
      .nullable()
      .optional()
      .meta({
        description: `Lines shown before and after a frame's line; null: ${DEFAULT_CONTEXT_LINES}.`,
      }),
    github_api_url: z.string().nullable().optional().meta({
      format: 'uri',
      description:
        'GitHub Enterprise API URL (https://HOST/api/v3) for this project; used only with the project token.',
    }),
  }),
  'Each field absent keeps its value, null clears it. Sent as is, or wrapped as `{"source_settings": {…}}`.',
)

const NOT_FOUND = errorResponse(404, 'No such project, or the user may not see it.')
const UNAUTHORIZED = errorResponse(401, 'The access token is missing or unknown.')
const SETTINGS = { description: 'The settings.', body: sourceSettingsAnswerSchema }

/** `GET` and `PUT /api/v1/projects/{id}/source_settings`. */
export const SOURCE_OPERATIONS: readonly ApiOperation[] = [
  {
    method: 'get',
    path: '/api/v1/projects/{id}/source_settings',
    id: 'getSourceSettings',
    tag: 'management',
    summary: "Show a project's source excerpt settings",
    description:
      'Anyone who sees the project. The token itself is never shown: `github_token_set`.',
    responses: { 200: SETTINGS, 401: UNAUTHORIZED, 404: NOT_FOUND },
  },
  {
    method: 'put',
    path: '/api/v1/projects/{id}/source_settings',
    id: 'setSourceSettings',
    tag: 'management',
    summary: "Set a project's source excerpt settings (owner or administrator)",
    description:
      'Sets the GitHub token (stored encrypted with SERVICE_SECRET_KEY; 422 naming the variable when it is unset), the path prefix, the context lines and the GitHub Enterprise API URL. Absent fields are kept, null clears.',
    body: z.xor([
      sourceSettingsRequestSchema,
      z.strictObject({ source_settings: sourceSettingsRequestSchema }),
    ]),
    responses: {
      200: SETTINGS,
      400: errorResponse(
        400,
        'The body is missing, not valid JSON, not a JSON object or empty (`{}`, or an envelope that is null or empty); the message begins `param is missing or the value is empty: source_settings`.',
      ),
      401: UNAUTHORIZED,
      403: errorResponse(403, 'The user may see the project but not manage it.'),
      404: NOT_FOUND,
      422: errorResponse(
        422,
        'A field is invalid, or a token was given without SERVICE_SECRET_KEY.',
      ),
    },
  },
]

/** Source excerpt settings and the schemas of the event detail's `frames` (source excerpts). */
export const SOURCE_OPENAPI: OpenApiExtension = {
  schemas: {
    SourceCommit: sourceCommitSchema,
    Frame: frameSchema,
    FrameSourceExcerpt: frameSourceExcerptSchema,
    FrameSourceFailure: frameSourceFailureSchema,
    SourceSettings: sourceSettingsSchema,
    SourceSettingsRequest: sourceSettingsRequestSchema,
  },
  paths: operationPaths(SOURCE_OPERATIONS),
}
