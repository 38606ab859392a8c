import { parseDeploymentEnvelope } from '@tis/schema'
import type { EngineRequest, EngineResponse } from '../http'
import { uuidv7 } from '../ids'
import { deploymentFromApi } from '../ingest/records'
import type { WriteOp } from '../ports'
import { caller, isResponse, managedProjects, type UploadContext } from './upload-context'
import { jsonBody, ok, sentryError } from './upload-respond'

// The release calls of sentry-cli and the bundler plugins (design note §2.9): tis keeps no
// release objects (a release is the string events and bundles carry), so these answer what the
// clients need; a deploy becomes a tis deployment (docs/sourcemaps.md "Releases and deploys").

/** What a Sentry deploy records when it names no repository: Sentry's deploys carry none. */
export const UNKNOWN_REPOSITORY = 'unknown/unknown'
/** What a Sentry deploy records when its release is no commit sha: git's null sha. */
export const NULL_COMMIT_SHA = '0'.repeat(40)

const HEX_SHA = /^[0-9a-f]{7,40}$/i

const str = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v : undefined)

/** A Sentry release object, with what sentry-cli's `ReleaseInfo` needs. */
function releaseJson(version: string, at: Date, released: unknown = null) {
  return {
    id: 0,
    version,
    shortVersion: version,
    ref: null,
    url: null,
    dateCreated: at.toISOString(),
    dateReleased: str(released) ?? null,
    data: {},
    newGroups: 0,
    owner: null,
    commitCount: 0,
    lastCommit: null,
    deployCount: 0,
    lastDeploy: null,
    authors: [],
    projects: [],
    firstEvent: null,
    lastEvent: null,
  }
}

/** The project ids a release call names: the path's `{project}`, then the body's `projects`. */
function projectIds(request: EngineRequest, body: Record<string, unknown>): string[] {
  const fromPath = request.params?.['project']
  const fromBody = Array.isArray(body['projects'])
    ? body['projects'].filter((p): p is string => typeof p === 'string')
    : []
  return fromPath ? [fromPath, ...fromBody] : fromBody
}

/** `POST …/releases/` (project and organization paths): 201, idempotent. */
export async function createRelease(
  ctx: UploadContext,
  request: EngineRequest,
): Promise<EngineResponse> {
  const auth = await caller(ctx, request)
  if (isResponse(auth)) return auth
  const body = jsonBody(request)
  const version =
    typeof body === 'object' && body ? str((body as Record<string, unknown>)['version']) : undefined
  if (!version) return sentryError(400, 'The body must be a JSON object with a "version".')
  const ids = projectIds(request, body as Record<string, unknown>)
  if (ids.length > 0) {
    const projects = await managedProjects(ctx, auth, ids)
    if (isResponse(projects)) return projects
  }
  return ok(releaseJson(version, ctx.now()), 201)
}

/** `PUT …/releases/{version}/` (finalize, set-commits): 200. */
export async function updateRelease(
  ctx: UploadContext,
  request: EngineRequest,
): Promise<EngineResponse> {
  const auth = await caller(ctx, request)
  if (isResponse(auth)) return auth
  const body = jsonBody(request)
  const released =
    typeof body === 'object' && body ? (body as Record<string, unknown>)['dateReleased'] : null
  return ok(releaseJson(request.params?.['version'] ?? '', ctx.now(), released))
}

/** An empty list (`GET …/repos/`, `GET …/releases/{v}/files/`), to a valid token. */
export async function emptyList(ctx: UploadContext, request: EngineRequest) {
  const auth = await caller(ctx, request)
  return isResponse(auth) ? auth : ok([])
}

/** The deployment op a deploy of `release` to `project` records. */
function deploymentWrite(
  projectId: string,
  release: string,
  body: Record<string, unknown>,
  at: Date,
): WriteOp | EngineResponse {
  const when = str(body['dateFinished']) ?? str(body['dateStarted'])
  const parsed = parseDeploymentEnvelope({
    deployment: {
      release,
      environment: str(body['environment']),
      repository: str(body['repository']) ?? UNKNOWN_REPOSITORY,
      commit_sha: str(body['commit_sha']) ?? (HEX_SHA.test(release) ? release : NULL_COMMIT_SHA),
      ...(when ? { deployed_at: when } : {}),
      ...(str(body['url']) ? { deployment_url: body['url'] } : {}),
      ...(str(body['name']) ? { name: body['name'] } : {}),
      source_tool: 'sentry',
    },
  })
  if (!parsed.ok) {
    return sentryError(400, 'errors' in parsed ? parsed.errors.join('; ') : parsed.error)
  }
  const deployment = parsed.value
  const upsert = deploymentFromApi(deployment, at)
  return {
    type: 'deployment',
    id: uuidv7(at.getTime()),
    projectId,
    receivedAt: at,
    deployment,
    upsert,
  }
}

/** `POST /api/0/organizations/{org}/releases/{version}/deploys/`: a tis deployment per project. */
export async function createDeploy(
  ctx: UploadContext,
  request: EngineRequest,
): Promise<EngineResponse> {
  const auth = await caller(ctx, request)
  if (isResponse(auth)) return auth
  const body = jsonBody(request)
  if (
    typeof body !== 'object' ||
    body === null ||
    !str((body as Record<string, unknown>)['environment'])
  ) {
    return sentryError(400, 'The body must be a JSON object with an "environment".')
  }
  const b = body as Record<string, unknown>
  const release = request.params?.['version'] ?? ''
  const projects = await managedProjects(ctx, auth, projectIds(request, b))
  if (isResponse(projects)) return projects
  const at = ctx.now()
  const ops: WriteOp[] = []
  for (const project of projects) {
    const op = deploymentWrite(project.id, release, b, at)
    if (isResponse(op)) return op
    ops.push(op)
  }
  const results = ctx.deployments ? await ctx.deployments.append(ops) : []
  return ok(
    {
      id: results[0]?.id ?? ops[0]?.id ?? null,
      environment: b['environment'],
      name: str(b['name']) ?? null,
      url: str(b['url']) ?? null,
      dateStarted: str(b['dateStarted']) ?? null,
      dateFinished: str(b['dateFinished']) ?? at.toISOString(),
    },
    201,
  )
}
