import type { EngineRequest, EngineResponse, SourceMapsApi } from '@tis/ingest'
import type { Handler } from 'hono'
import type { ClientIpResolver } from './client-ip'
import { sendEngineResponse } from './respond'
import type { RouteSpec } from './route-spec'

// Source maps (issue 31): Sentry's upload protocol at `/api/0/` (docs/sourcemaps.md
// "Uploading") and the project's bundle list at `/api/v1/projects/:id/artifact_bundles`.

type Operation = (request: EngineRequest) => Promise<EngineResponse>

/**
 * The paths of binary uploads (chunks, sentry-cli 2's per-file release uploads), which get a
 * body cap of their own: a chunk plus 64 KiB.
 */
export const UPLOAD_BODY_PATH =
  /^\/api\/0\/(organizations\/[^/]+\/chunk-upload|projects\/[^/]+\/[^/]+\/releases\/[^/]+\/files)\/?$/

/**
 * A source-map route: headers, client IP, path and query parameters, and the body as bytes for
 * the multipart chunk upload, as text (JSON, parsed by the engine) for the rest.
 */
function route(operation: Operation, clientIp: ClientIpResolver, binary = false): Handler {
  return async (c) => {
    const ip = clientIp(c)
    const body = binary
      ? { bytes: new Uint8Array(await c.req.arrayBuffer()) }
      : { text: await c.req.text() }
    const request: EngineRequest = {
      headers: c.req.raw.headers,
      ...(ip === undefined ? {} : { ip }),
      params: c.req.param(),
      query: c.req.query(),
      ...body,
    }
    return sendEngineResponse(c, await operation(request))
  }
}

/** The `/api/0/` paths sentry-cli and the bundler plugins call, by operation. */
function uploadPaths(api: SourceMapsApi): [RouteSpec['method'], string, Operation][] {
  const org = '/api/0/organizations/:org'
  const rows: [RouteSpec['method'], string, Operation][] = [
    ['GET', `${org}/`, api.organization],
    ['GET', `${org}/chunk-upload/`, api.chunkUploadOptions],
    ['POST', `${org}/chunk-upload/`, api.uploadChunks],
    ['POST', `${org}/artifactbundle/assemble/`, api.assembleArtifactBundle],
    ['GET', `${org}/repos/`, api.emptyList],
    ['POST', `${org}/releases/:version/deploys/`, api.createDeploy],
  ]
  for (const scope of ['/api/0/projects/:org/:project_id', org]) {
    rows.push(
      ['POST', `${scope}/releases/`, api.createRelease],
      ['PUT', `${scope}/releases/:version/`, api.updateRelease],
      ['GET', `${scope}/releases/:version/files/`, api.emptyList],
    )
  }
  rows.push([
    'POST',
    '/api/0/projects/:org/:project_id/releases/:version/files/',
    api.uploadReleaseFile,
  ])
  // With the trailing slash the clients send, and without it.
  return rows.flatMap((r) => [r, [r[0], r[1].slice(0, -1), r[2]]])
}

/** The source-map routes: the upload protocol and the bundle list. */
export function sourceMapRoutes(api: SourceMapsApi, clientIp: ClientIpResolver): RouteSpec[] {
  const bundles = '/api/v1/projects/:id/artifact_bundles'
  const withProject =
    (op: Operation): Operation =>
    (request) => {
      // The engine reads `project` for the projects path; the route names it `project_id`.
      const { project_id, ...rest } = request.params ?? {}
      return op({ ...request, params: project_id ? { ...rest, project: project_id } : rest })
    }
  return [
    { method: 'GET', path: '/api/0/', handler: route(api.apiRoot, clientIp) },
    ...uploadPaths(api).map(
      ([method, path, op]): RouteSpec => ({
        method,
        path,
        handler: route(
          withProject(op),
          clientIp,
          op === api.uploadChunks || op === api.uploadReleaseFile,
        ),
      }),
    ),
    { method: 'GET', path: bundles, handler: route(api.listArtifactBundles, clientIp) },
    {
      method: 'GET',
      path: `${bundles}/:bundle_id`,
      handler: route(api.getArtifactBundle, clientIp),
    },
    {
      method: 'DELETE',
      path: `${bundles}/:bundle_id`,
      handler: route(api.deleteArtifactBundle, clientIp),
    },
  ]
}
