import * as z from 'zod'
import type { OpenApiExtension, OpenApiObject } from '../openapi'
import { errorResponse } from './error-responses'
import { type ApiOperation, operationPaths } from './operations'
import {
  artifactBundleDetailSchema,
  artifactBundleListSchema,
  artifactBundleSchema,
  artifactFileSchema,
} from './sourcemaps-answers'
import {
  assembleRequestSchema,
  assembleStateSchema,
  SENTRY_UPLOAD_OPERATIONS,
  sentryErrorSchema,
} from './sourcemaps-upload-operations'

const NOT_FOUND = errorResponse(404, 'No such project or bundle, or the user may not see it.')
const UNAUTHORIZED = errorResponse(401, 'The access token is missing or unknown.')
const BUNDLE = '/api/v1/projects/{id}/artifact_bundles/{bundle_id}'

/** A project's uploaded source-map bundles: list, show, delete. */
export const SOURCEMAPS_OPERATIONS: readonly ApiOperation[] = [
  {
    method: 'get',
    path: '/api/v1/projects/{id}/artifact_bundles',
    id: 'listArtifactBundles',
    tag: 'sourcemaps',
    summary: "List a project's source-map bundles",
    description: 'Anyone who sees the project. Newest upload first.',
    query: z.strictObject({
      limit: z.int().min(1).max(1_000).optional().meta({ description: 'At most; default 100.' }),
      release: z.string().optional().meta({ description: 'Only the bundles of this release.' }),
    }),
    responses: {
      200: { description: 'The bundles.', body: artifactBundleListSchema },
      401: UNAUTHORIZED,
      404: NOT_FOUND,
      422: errorResponse(422, '`limit` is not an integer from 1 to 1000.'),
    },
  },
  {
    method: 'get',
    path: BUNDLE,
    id: 'getArtifactBundle',
    tag: 'sourcemaps',
    summary: 'Show a source-map bundle and its files',
    responses: {
      200: { description: 'The bundle and its files.', body: artifactBundleDetailSchema },
      401: UNAUTHORIZED,
      404: NOT_FOUND,
    },
  },
  {
    method: 'delete',
    path: BUNDLE,
    id: 'deleteArtifactBundle',
    tag: 'sourcemaps',
    summary: 'Delete a source-map bundle (owner or administrator)',
    description:
      'Frames of events already stored keep their resolution only until read again: new reads of them no longer find this bundle.',
    responses: {
      204: { description: 'Deleted.' },
      401: UNAUTHORIZED,
      403: errorResponse(403, 'The user may see the project but not manage it.'),
      404: NOT_FOUND,
    },
  },
]

/** A multipart form body; `example` is what the HTTP API page's curl example sends. */
const form = (description: string, example: object, parts: string[]): OpenApiObject => ({
  required: true,
  content: {
    'multipart/form-data': {
      example,
      schema: {
        type: 'object',
        description,
        properties: Object.fromEntries(parts.map((p) => [p, { type: 'string', format: 'binary' }])),
      },
    },
  },
})

const CHUNK_FORM = form(
  'One or more parts named `file` (raw) or `file_gzip` (gzip), each with the SHA-1 of the raw chunk as its filename.',
  // One raw chunk, `hello`, named by its SHA-1.
  { file: { filename: 'aaf4c61ddcc5e8a2dabede0f3b482cd9aea9434d', content: 'hello' } },
  ['file', 'file_gzip'],
)
const RELEASE_FILE_FORM = form(
  'Parts `file` (the content), `name` (its URL, `~/app.min.js`), `dist`, and repeated `header` (`Key:Value`).',
  { file: { filename: 'app.min.js', content: 'console.log(1)' } },
  ['file', 'name', 'dist', 'header'],
)

/** The multipart bodies, which the operation table cannot describe. */
function withForms(paths: Record<string, OpenApiObject>): Record<string, OpenApiObject> {
  for (const [path, item] of Object.entries(paths)) {
    const post = item['post'] as OpenApiObject | undefined
    if (!/chunk-upload|files\/?$/.test(path) || !post) continue
    post['requestBody'] = path.includes('chunk-upload') ? CHUNK_FORM : RELEASE_FILE_FORM
  }
  return paths
}

/** Source maps (docs/sourcemaps.md): Sentry's upload protocol at `/api/0/` and the bundle list. */
export const SOURCEMAPS_OPENAPI: OpenApiExtension = {
  tags: [
    { name: 'sourcemaps', description: "A project's source-map bundles (docs/sourcemaps.md)" },
    {
      name: 'sentry-upload',
      description:
        "Sentry's upload protocol, as sentry-cli 2/3 and the bundler plugins speak it (docs/sourcemaps.md, Uploading)",
    },
  ],
  schemas: {
    ArtifactBundle: artifactBundleSchema,
    ArtifactFile: artifactFileSchema,
    SentryError: sentryErrorSchema,
    SentryAssembleRequest: assembleRequestSchema,
    SentryAssembleState: assembleStateSchema,
  },
  paths: {
    ...operationPaths(SOURCEMAPS_OPERATIONS),
    ...withForms(operationPaths(SENTRY_UPLOAD_OPERATIONS)),
  },
}
