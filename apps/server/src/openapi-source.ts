import { DEFAULT_CONTEXT_LINES, MAX_CONTEXT_LINES } from '@tis/ingest'
import type { OpenApiExtension, OpenApiObject } from '@tis/schema'

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })
const json = (schema: OpenApiObject) => ({ 'application/json': { schema } })
const nullable = (type: string) => ({ type: [type, 'null'] })
const PROJECT_ID = {
  name: 'id',
  in: 'path',
  required: true,
  schema: { type: 'string', format: 'uuid' },
}
const error = (description: string, schema = ref('Error')) => ({
  description,
  content: json(schema),
})

/** Every `frames[].source.status` but `ok`. */
export const FRAME_SOURCE_FAILURES = [
  'not_found',
  'no_access',
  'rate_limited',
  'too_large',
  'unavailable',
  'not_in_repository',
  'no_commit',
  'timeout',
  'not_configured',
  'skipped',
] as const

const SCHEMAS: Record<string, OpenApiObject> = {
  SourceCommit: {
    type: ['object', 'null'],
    description:
      "The commit the excerpts are cut from: the event's `commit_sha` and `repository` (`from: event`), else the deployment shown in `deployment` (`from: deployment`); null when there is neither.",
    required: ['repository', 'commit_sha', 'from'],
    properties: {
      repository: { type: 'string', description: 'owner/name' },
      commit_sha: { type: 'string', pattern: '^[0-9a-f]{7,40}$' },
      from: { type: 'string', enum: ['event', 'deployment'] },
    },
  },
  Frame: {
    type: 'object',
    description:
      'One stack frame of `context.exception` (its `frames`, else its `backtrace` lines, else its `stack`), in the order sent.',
    required: ['function', 'filename', 'lineno', 'colno', 'in_app', 'source'],
    properties: {
      function: nullable('string'),
      filename: { ...nullable('string'), description: 'As sent: a path or a URL.' },
      lineno: nullable('integer'),
      colno: nullable('integer'),
      in_app: { type: 'boolean', description: 'The file maps to a path in the repository.' },
      source: { oneOf: [ref('FrameSourceExcerpt'), ref('FrameSourceFailure')] },
    },
  },
  FrameSourceExcerpt: {
    type: 'object',
    required: ['status', 'repository', 'commit_sha', 'path', 'line', 'lines', 'url'],
    properties: {
      status: { const: 'ok' },
      repository: { type: 'string' },
      commit_sha: { type: 'string' },
      path: { type: 'string', description: 'The file in the repository.' },
      line: { type: 'integer', minimum: 1 },
      lines: {
        type: 'array',
        description: 'The line and up to `context_lines` lines before and after it.',
        items: {
          type: 'object',
          required: ['number', 'text'],
          properties: {
            number: { type: 'integer', minimum: 1 },
            text: { type: 'string', maxLength: 1000 },
          },
        },
      },
      url: {
        type: 'string',
        format: 'uri',
        description:
          'The line on GitHub at that commit: https://github.com/owner/repo/blob/<sha>/<path>#L<n>',
      },
    },
  },
  FrameSourceFailure: {
    type: 'object',
    description:
      'Why the frame has no excerpt (see docs/source-excerpts.md); never fails the response.',
    required: ['status', 'message'],
    properties: {
      status: { type: 'string', enum: [...FRAME_SOURCE_FAILURES] },
      message: { type: 'string' },
    },
  },
  SourceSettings: {
    type: 'object',
    description: "A project's source excerpt settings. The GitHub token is write-only.",
    required: [
      'github_token_set',
      'server_token_available',
      'path_prefix',
      'context_lines',
      'github_api_url',
      'effective_github_api_url',
      'updated_at',
    ],
    properties: {
      github_token_set: { type: 'boolean', description: 'The project has a token of its own.' },
      server_token_available: { type: 'boolean', description: 'SERVICE_GITHUB_TOKEN is set.' },
      path_prefix: nullable('string'),
      context_lines: { type: 'integer', minimum: 0, maximum: MAX_CONTEXT_LINES },
      github_api_url: {
        ...nullable('string'),
        description: "null: the server's SERVICE_GITHUB_API_URL.",
      },
      effective_github_api_url: { type: 'string' },
      updated_at: { ...nullable('string'), format: 'date-time' },
    },
  },
  SourceSettingsRequest: {
    type: 'object',
    description:
      'Each field absent keeps its value, null clears it. Sent as is, or wrapped as `{"source_settings": {…}}`.',
    additionalProperties: false,
    properties: {
      github_token: {
        ...nullable('string'),
        description:
          'A GitHub token with Contents: read (fine-grained) or `repo` (classic). Stored encrypted; needs SERVICE_SECRET_KEY on the server. Never shown again.',
      },
      path_prefix: {
        ...nullable('string'),
        description:
          'Stripped from absolute paths and URLs of frames to get repository paths, e.g. `/app/` for `/app/src/x.ts` → `src/x.ts`.',
      },
      context_lines: {
        ...nullable('integer'),
        minimum: 0,
        maximum: MAX_CONTEXT_LINES,
        description: `Lines shown before and after a frame's line; null: ${DEFAULT_CONTEXT_LINES}.`,
      },
      github_api_url: {
        ...nullable('string'),
        format: 'uri',
        description:
          'GitHub Enterprise API URL (https://HOST/api/v3) for this project; used only with the project token.',
      },
    },
  },
}

const operation = (id: string, summary: string, rest: OpenApiObject) => ({
  operationId: id,
  tags: ['management'],
  summary,
  security: [{ userToken: [] }],
  ...rest,
})
const settingsResponse = {
  description: 'The settings.',
  content: json({
    type: 'object',
    required: ['source_settings'],
    properties: { source_settings: ref('SourceSettings') },
  }),
}

/** Source excerpt settings (issue 11) and the schemas of the event detail's `frames`. */
export const SOURCE_OPENAPI: OpenApiExtension = {
  schemas: SCHEMAS,
  paths: {
    '/api/v1/projects/{id}/source_settings': {
      get: operation('getSourceSettings', "Show a project's source excerpt settings", {
        description:
          'Anyone who sees the project. The token itself is never shown: `github_token_set`.',
        parameters: [PROJECT_ID],
        responses: {
          '200': settingsResponse,
          '401': error('The access token is missing or unknown.'),
          '404': error('No such project, or the user may not see it.'),
        },
      }),
      put: operation(
        'setSourceSettings',
        "Set a project's source excerpt settings (owner or administrator)",
        {
          description:
            'Sets the GitHub token (stored encrypted with SERVICE_SECRET_KEY; 422 naming the variable when it is unset), the path prefix, the context lines and the GitHub Enterprise API URL. Absent fields are kept, null clears.',
          parameters: [PROJECT_ID],
          requestBody: {
            required: true,
            content: json({
              oneOf: [
                ref('SourceSettingsRequest'),
                {
                  type: 'object',
                  required: ['source_settings'],
                  additionalProperties: false,
                  properties: { source_settings: ref('SourceSettingsRequest') },
                },
              ],
            }),
          },
          responses: {
            '200': settingsResponse,
            '400': error(
              'The body is missing, not valid JSON, not a JSON object or empty (`{}`, or an envelope that is null or empty); the message begins `param is missing or the value is empty: source_settings`.',
            ),
            '401': error('The access token is missing or unknown.'),
            '403': error('The user may see the project but not manage it.'),
            '404': error('No such project, or the user may not see it.'),
            '422': error(
              'A field is invalid, or a token was given without SERVICE_SECRET_KEY.',
              ref('ValidationErrors'),
            ),
          },
        },
      ),
    },
  },
}
