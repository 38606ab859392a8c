import type { EngineRequest, EngineResponse } from '../http'
import type { Authenticated, ProjectAccess } from '../management/access'
import type {
  AcceptanceStore,
  ArtifactStore,
  ProjectLookup,
  ProjectRecord,
  ProjectStore,
} from '../ports'
import type { SourceMapLimits } from './upload-limits'
import { sentryError, UNAUTHORIZED_DETAIL } from './upload-respond'

/** What every operation of the source-map API shares (built by `createSourceMapsApi`). */
export interface UploadContext {
  /** With `listProjects`, `--project` may also be the project's number (its DSN's). */
  readonly store: ArtifactStore & ProjectLookup & Partial<Pick<ProjectStore, 'listProjects'>>
  readonly access: ProjectAccess
  /** Where `deploys new` records its deployment; without it the deploy is answered, not kept. */
  readonly deployments: Pick<AcceptanceStore, 'append'> | undefined
  readonly publicUrl: string | undefined
  readonly limits: SourceMapLimits
  readonly now: () => Date
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** The caller, or the 401 every upload endpoint answers without a valid user access token. */
export async function caller(
  ctx: UploadContext,
  request: EngineRequest,
): Promise<Authenticated | EngineResponse> {
  const auth = await ctx.access.authenticate(request)
  return auth ?? sentryError(401, UNAUTHORIZED_DETAIL)
}

/** Whether {@link caller} answered a refusal. */
export function isResponse(value: unknown): value is EngineResponse {
  return typeof value === 'object' && value !== null && 'status' in value && 'body' in value
}

/** A project by id, or by number among the projects the caller sees. */
async function findProject(ctx: UploadContext, auth: Authenticated, id: string) {
  if (UUID.test(id)) return ctx.store.findProject(id.toLowerCase())
  if (!/^\d{1,18}$/.test(id) || !ctx.store.listProjects) return null
  const mine = await ctx.store.listProjects(auth.admin ? null : auth.user.id)
  return mine.find((p) => p.number != null && String(p.number) === id) ?? null
}

/**
 * The projects a request names (`--project`: tis project ids), each one the caller may manage:
 * 400 for an unknown one (and one the caller may not see, so ids are not disclosed), 403 for
 * one the caller sees but may not manage (members: owners and administrators upload), 403 for
 * an archived one.
 */
export async function managedProjects(
  ctx: UploadContext,
  auth: Authenticated,
  ids: readonly string[],
): Promise<readonly ProjectRecord[] | EngineResponse> {
  if (ids.length === 0) {
    return sentryError(400, 'No project given: pass the tis project id as `--project <id>`.')
  }
  const projects: ProjectRecord[] = []
  for (const id of new Set(ids)) {
    const project = await findProject(ctx, auth, id)
    if (!project || !(await ctx.access.canSee(project, auth.user, auth.admin))) {
      return sentryError(
        400,
        `Unknown project "${id}": --project takes the tis project id (a UUID, or the project's number) of a project you own.`,
      )
    }
    if (!auth.admin && project.ownerId !== auth.user.id) {
      return sentryError(
        403,
        `You may not upload to project ${id}: only its owner or an administrator may.`,
      )
    }
    if (project.status !== 'active') {
      return sentryError(403, `Project ${id} is archived: restore it before uploading.`)
    }
    projects.push(project)
  }
  return projects
}
