import * as z from 'zod'
import { component } from './common'
import type { ApiOperation, ApiResponse } from './operations'

// Sentry's upload protocol at `/api/0/` (design note §2, docs/sourcemaps.md "Uploading"): what
// sentry-cli 2.x/3.x and the bundler plugins call. Each path with the trailing slash the clients
// send, and without it.

/** The error body of the `/api/0/` endpoints: sentry-cli prints `detail`. */
export const sentryErrorSchema = component(
  'SentryError',
  z.strictObject({ detail: z.string(), error: z.string() }),
  'Both fields hold the same message: Sentry clients read `detail`, tis clients `error`.',
)

const ORG = z.string().meta({ description: 'Any organization slug: tis has none.' })
const VERSION = z.string().meta({ description: 'The release.' })
const PROJECT = z.string().meta({
  description: "The tis project id (`--project`: a UUID, or the project's number).",
})
const err = (description: string): ApiResponse => ({ description, body: sentryErrorSchema })
const UNAUTHORIZED = err('No tis user access token, or an unknown one.')
const FORBIDDEN = err(
  'The user may see the project but not manage it (owners and administrators upload), or it is archived.',
)
const BAD_PROJECT = err('No project, or an unknown one (also one the user may not see).')
const anyJson = (description: string) => z.looseObject({}).meta({ description })

/** `POST …/artifactbundle/assemble/` body, for the document (the engine checks it itself). */
export const assembleRequestSchema = component(
  'SentryAssembleRequest',
  z
    .looseObject({
      checksum: z
        .string()
        .regex(/^[0-9a-f]{40}$/i)
        .meta({ description: 'SHA-1 of the bundle.' }),
      chunks: z
        .array(z.string().regex(/^[0-9a-f]{40}$/i))
        .meta({ description: 'Its chunks, in order.' }),
      projects: z.array(z.string()).min(1).meta({ description: 'tis project ids.' }),
      version: z
        .string()
        .optional()
        .meta({ description: 'The release; `"undefined"` means none.' }),
      dist: z.string().optional(),
    })
    .meta({
      example: {
        checksum: '2fd4e1c67a2d28fced849ee1bb76e7391b93eb12',
        chunks: ['2fd4e1c67a2d28fced849ee1bb76e7391b93eb12'],
        projects: ['$PROJECT_ID'],
      },
    }),
)
/** The assemble answer. */
export const assembleStateSchema = component(
  'SentryAssembleState',
  z.looseObject({
    state: z.enum(['ok', 'not_found', 'error']),
    missingChunks: z.array(z.string()),
    detail: z.string().nullable(),
  }),
  '`not_found` lists the chunks to upload first; `ok` and `error` are final (tis assembles in the request).',
)

const rows: Omit<ApiOperation, 'tag' | 'security'>[] = [
  {
    method: 'get',
    path: '/api/0/',
    id: 'sentryApiRoot',
    summary: 'Check the token (`sentry-cli info`, `login`)',
    responses: {
      200: {
        description: '`{"auth":{"scopes":["org:ci"]},"user":null}`.',
        body: anyJson('The token is valid.'),
      },
      401: UNAUTHORIZED,
    },
  },
  {
    method: 'get',
    path: '/api/0/organizations/{org}/',
    id: 'sentryOrganization',
    summary: 'Organization details: always 404 (never 401), so the JS uploader keeps its URL',
    params: { org: ORG },
    responses: { 404: err('tis has no organizations.') },
  },
  {
    method: 'get',
    path: '/api/0/organizations/{org}/chunk-upload/',
    id: 'sentryChunkUploadOptions',
    summary: 'The chunk upload options',
    description:
      'An absolute `url` on the origin the client used (X-Forwarded-Host/-Proto, Host, SERVICE_PUBLIC_URL), `chunkSize` (SERVICE_SOURCEMAPS_CHUNK_BYTES), one chunk per request, `hashAlgorithm: sha1`, `compression: ["gzip"]`, `accept: ["release_files","artifact_bundles","artifact_bundles_v2"]`.',
    params: { org: ORG },
    responses: {
      200: { description: 'The options.', body: anyJson('Sentry chunk-upload options.') },
      401: UNAUTHORIZED,
    },
  },
  {
    method: 'post',
    path: '/api/0/organizations/{org}/chunk-upload/',
    id: 'sentryUploadChunks',
    summary: 'Upload chunks (multipart)',
    description:
      "Chunks are kept for the token's user until a bundle is assembled from them. All or nothing.",
    params: { org: ORG },
    body: z.unknown(),
    responses: {
      200: { description: 'Stored (empty body).' },
      400: err(
        'Not multipart, no chunk, a filename that is not a SHA-1, invalid gzip, or a chunk whose content does not hash to its name (named).',
      ),
      401: UNAUTHORIZED,
      413: err('A chunk or the request is over the chunk size.'),
      415: err('brotli (only gzip is advertised).'),
    },
  },
  {
    method: 'post',
    path: '/api/0/organizations/{org}/artifactbundle/assemble/',
    id: 'sentryAssembleArtifactBundle',
    summary: 'Assemble an artifact bundle from uploaded chunks',
    params: { org: ORG },
    body: assembleRequestSchema,
    responses: {
      200: {
        description: '`ok` (stored, or stored before) or `not_found` with the missing chunks.',
        body: assembleStateSchema,
      },
      400: {
        description:
          'A bad body (`error`), an unknown project, or `state: error` naming why: checksum mismatch, not a zip, no manifest.json, a file the manifest names but the zip lacks, no debug IDs and no release. Nothing is stored.',
        body: assembleStateSchema,
      },
      401: UNAUTHORIZED,
      403: FORBIDDEN,
      413: {
        description:
          'Over SERVICE_SOURCEMAPS_MAX_BUNDLE_BYTES, the files-per-bundle cap or the project total (SERVICE_SOURCEMAPS_MAX_PROJECT_BYTES).',
        body: assembleStateSchema,
      },
    },
  },
]

const releaseBody = anyJson('`{version, projects?}`.').meta({ example: { version: '1.0.0' } })
const release = {
  description: 'The release (not stored: a release is the string events and bundles carry).',
  body: anyJson('A Sentry release.'),
}
for (const [scope, params] of [
  ['/api/0/projects/{org}/{project_id}', { org: ORG, project_id: PROJECT }],
  ['/api/0/organizations/{org}', { org: ORG }],
] as const) {
  const which = scope.includes('projects') ? 'Project' : 'Organization'
  rows.push(
    {
      method: 'post',
      path: `${scope}/releases/`,
      id: `sentryCreate${which}Release`,
      summary: `Create a release (${which.toLowerCase()} path; idempotent)`,
      params,
      body: releaseBody,
      responses: { 201: release, 400: BAD_PROJECT, 401: UNAUTHORIZED, 403: FORBIDDEN },
    },
    {
      method: 'put',
      path: `${scope}/releases/{version}/`,
      id: `sentryUpdate${which}Release`,
      summary: `Update (finalize) a release (${which.toLowerCase()} path)`,
      params: { ...params, version: VERSION },
      body: anyJson('`{dateReleased?, refs?}`: accepted, not stored.').optional(),
      responses: { 200: release, 401: UNAUTHORIZED },
    },
    {
      method: 'get',
      path: `${scope}/releases/{version}/files/`,
      id: `sentryList${which}ReleaseFiles`,
      summary: 'Legacy release files: always `[]` (uploads go to artifact bundles)',
      params: { ...params, version: VERSION },
      responses: { 200: { description: '`[]`.', body: z.array(z.unknown()) }, 401: UNAUTHORIZED },
    },
  )
}
rows.push(
  {
    method: 'post',
    path: '/api/0/projects/{org}/{project_id}/releases/{version}/files/',
    id: 'sentryUploadReleaseFile',
    summary: "Upload one release file (sentry-cli 2's legacy per-file upload)",
    description:
      'Multipart parts `file`, `name` (`~/app.min.js`; default `~/` + the filename), `dist`, and repeated `header` (`Sourcemap:app.min.js.map`, `debug-id:<uuid>`). Stored as a one-file bundle of the release. The body may be a chunk plus 64 KiB (SERVICE_SOURCEMAPS_CHUNK_BYTES).',
    params: { org: ORG, project_id: PROJECT, version: VERSION },
    body: z.unknown(),
    responses: {
      200: {
        description: 'The same file (release, dist, name, content) was stored before.',
        body: anyJson('A Sentry release file.'),
      },
      201: { description: 'Stored.', body: anyJson('A Sentry release file.') },
      400: err('Not multipart, no `file` part, or an unknown project.'),
      401: UNAUTHORIZED,
      403: FORBIDDEN,
      413: err('Over the body cap or the project total.'),
    },
  },
  {
    method: 'get',
    path: '/api/0/organizations/{org}/repos/',
    id: 'sentryListRepos',
    summary: 'Repositories: always `[]`',
    params: { org: ORG },
    responses: { 200: { description: '`[]`.', body: z.array(z.unknown()) }, 401: UNAUTHORIZED },
  },
  {
    method: 'post',
    path: '/api/0/organizations/{org}/releases/{version}/deploys/',
    id: 'sentryCreateDeploy',
    summary: 'Record a deploy: a tis deployment of the release in each project',
    description:
      "Body `{environment, name?, url?, dateStarted?, dateFinished?, projects: [tis project id]}`. Sentry sends no repository or commit: the deployment records `repository: unknown/unknown` and the release as `commit_sha` when it is a 7–40 hex sha, else git's null sha (40 zeros); a body may carry `repository` and `commit_sha` to set them.",
    params: { org: ORG, version: VERSION },
    body: anyJson('A Sentry deploy.').meta({
      example: { environment: 'production', projects: ['$PROJECT_ID'] },
    }),
    responses: {
      201: { description: 'Recorded.', body: anyJson('A Sentry deploy.') },
      400: BAD_PROJECT,
      401: UNAUTHORIZED,
      403: FORBIDDEN,
    },
  },
)

/** Every `/api/0/` operation, with and without the trailing slash. */
export const SENTRY_UPLOAD_OPERATIONS: readonly ApiOperation[] = rows.flatMap((row) => {
  const op: ApiOperation = { ...row, tag: 'sentry-upload', security: [{ userToken: [] }] }
  if (row.path === '/api/0/') return [op]
  return [
    op,
    {
      ...op,
      path: row.path.slice(0, -1),
      id: `${row.id}NoSlash`,
      summary: `${row.summary} (no trailing slash)`,
    },
  ]
})
