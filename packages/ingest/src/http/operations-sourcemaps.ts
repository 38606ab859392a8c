import type { BodyCap, HttpMethod, HttpOperation } from './operation-types'

// Source maps: Sentry's upload protocol at `/api/0/` (docs/sourcemaps.md "Uploading"), as
// sentry-cli and the bundler plugins call it, and the project's bundle list.

type Row = readonly [HttpMethod, string, string, string]

const ORG = '/api/0/organizations/:org'
const PROJECT = '/api/0/projects/:org/:project_id'

// The binary uploads (chunks, sentry-cli 2's per-file release uploads) and every other method
// on their paths have a cap of their own: a chunk plus 64 KiB.
const UPLOAD_PATHS = new Set([`${ORG}/chunk-upload/`, `${PROJECT}/releases/:version/files/`])
const BINARY = new Set(['uploadChunks', 'uploadReleaseFile'])

/** Method, path (with the trailing slash the clients send), function, `operationId`. */
const ROWS: readonly Row[] = [
  ['GET', `${ORG}/`, 'organization', 'sentryOrganization'],
  ['GET', `${ORG}/chunk-upload/`, 'chunkUploadOptions', 'sentryChunkUploadOptions'],
  ['POST', `${ORG}/chunk-upload/`, 'uploadChunks', 'sentryUploadChunks'],
  [
    'POST',
    `${ORG}/artifactbundle/assemble/`,
    'assembleArtifactBundle',
    'sentryAssembleArtifactBundle',
  ],
  ['GET', `${ORG}/repos/`, 'emptyList', 'sentryListRepos'],
  ['POST', `${ORG}/releases/:version/deploys/`, 'createDeploy', 'sentryCreateDeploy'],
  ['POST', `${PROJECT}/releases/`, 'createRelease', 'sentryCreateProjectRelease'],
  ['PUT', `${PROJECT}/releases/:version/`, 'updateRelease', 'sentryUpdateProjectRelease'],
  ['GET', `${PROJECT}/releases/:version/files/`, 'emptyList', 'sentryListProjectReleaseFiles'],
  ['POST', `${ORG}/releases/`, 'createRelease', 'sentryCreateOrganizationRelease'],
  ['PUT', `${ORG}/releases/:version/`, 'updateRelease', 'sentryUpdateOrganizationRelease'],
  ['GET', `${ORG}/releases/:version/files/`, 'emptyList', 'sentryListOrganizationReleaseFiles'],
  ['POST', `${PROJECT}/releases/:version/files/`, 'uploadReleaseFile', 'sentryUploadReleaseFile'],
]

/**
 * A source-map operation: headers, client IP, path and query parameters (the projects path's
 * `project_id` named `project`, as the engine reads it), and the body as bytes for the binary
 * uploads, as text (JSON, parsed by the engine) for the rest.
 */
function operation([method, path, call, id]: Row, cap: BodyCap): HttpOperation {
  return {
    method,
    path,
    id,
    api: 'sourceMaps',
    call,
    body: BINARY.has(call) ? 'bytes' : 'text',
    cap,
    params: true,
    rename: { project_id: 'project' },
  }
}

/** The source-map operations: the upload protocol (each path with and without its trailing slash) and the bundle list. */
export function sourceMapOperations(): HttpOperation[] {
  const bundles = '/api/v1/projects/:id/artifact_bundles'
  const plain = (method: HttpMethod, path: string, call: string): HttpOperation => ({
    method,
    path,
    id: call,
    api: 'sourceMaps',
    call,
    body: 'text',
    cap: 'body',
    params: true,
  })
  return [
    { ...plain('GET', '/api/0/', 'apiRoot'), id: 'sentryApiRoot' },
    ...ROWS.flatMap((row) => {
      const cap = UPLOAD_PATHS.has(row[1]) ? 'chunk' : 'body'
      const slash = operation(row, cap)
      return [slash, { ...slash, path: row[1].slice(0, -1), id: `${row[3]}NoSlash` }]
    }),
    plain('GET', bundles, 'listArtifactBundles'),
    plain('GET', `${bundles}/:bundle_id`, 'getArtifactBundle'),
    plain('DELETE', `${bundles}/:bundle_id`, 'deleteArtifactBundle'),
  ]
}
