import { ERROR_BODIES } from '@tis/schema'
import { type EngineRequest, type EngineResponse, json, readHeader } from '../http'
import { sha256Hex, TOKEN_PREFIXES } from '../ids'
import type { ProjectLookup, ProjectRecord, UserRecord, UserStore } from '../ports'

/** The email of the administrator created on first run when no admin email is configured. */
export const DEFAULT_ADMIN_EMAIL = 'admin@localhost'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const NOT_FOUND = { error: 'Not found' } as const

/** One operation of the management, read, source-settings or account API. */
export type ManagementOperation = (request: EngineRequest) => Promise<EngineResponse>

/** An authenticated user and whether they are an application administrator. */
export interface Authenticated {
  readonly user: UserRecord
  readonly admin: boolean
}

/** What a project-scoped operation does once access is settled. */
export type ProjectOperationBody = (
  request: EngineRequest,
  project: ProjectRecord,
  user: UserRecord,
  admin: boolean,
) => Promise<EngineResponse>

/** Who may do what: the access rule every user-facing API shares. */
export interface ProjectAccess {
  /** The user behind a request's access token (or its in-process `user`), or `null`. */
  authenticate(request: EngineRequest): Promise<Authenticated | null>
  /** Whether the user may see the project: owner, member or administrator. */
  canSee(project: ProjectRecord, user: UserRecord, admin: boolean): Promise<boolean>
  /** Whether the user is an application administrator (`SERVICE_ADMIN_EMAILS`). */
  isAdmin(user: UserRecord): boolean
  /**
   * A project-scoped operation: 401 without a user access token; 404 when `:id` is not a
   * project the user may see (owner, member or administrator), so other projects' ids are not
   * disclosed; with `manage`, 403 unless the user owns the project or is an administrator.
   * Otherwise runs `fn`.
   */
  project(manage: boolean, fn: ProjectOperationBody): ManagementOperation
}

/** Options of {@link createProjectAccess}. */
export interface ProjectAccessOptions {
  /** Users by access-token digest, projects and their members. */
  readonly store: Pick<UserStore, 'findUserByTokenDigest'> & ProjectLookup
  /**
   * Application administrators (`SERVICE_ADMIN_EMAILS`). When empty, `admin@localhost` — the
   * first-run user — is the administrator.
   * @default []
   */
  readonly adminEmails?: readonly string[]
}

/** Creates the access rule of the management, read, source-settings and account APIs. */
export function createProjectAccess(options: ProjectAccessOptions): ProjectAccess {
  const { store } = options
  const emails = options.adminEmails ?? []
  const admins = new Set(
    (emails.length > 0 ? emails : [DEFAULT_ADMIN_EMAIL]).map((e) => e.trim().toLowerCase()),
  )
  const isAdmin = (user: UserRecord) => admins.has(user.email.toLowerCase())

  async function authenticate(request: EngineRequest): Promise<Authenticated | null> {
    if (request.user) return { user: request.user, admin: isAdmin(request.user) }
    const match = /^Bearer\s+(\S+)$/i.exec(readHeader(request.headers, 'authorization') ?? '')
    const token = match?.[1]
    if (!token?.startsWith(TOKEN_PREFIXES.user) || token.length > 512) return null
    const user = await store.findUserByTokenDigest(sha256Hex(token))
    return user ? { user, admin: isAdmin(user) } : null
  }

  async function canSee(project: ProjectRecord, user: UserRecord, admin: boolean) {
    return admin || project.ownerId === user.id || (await store.isMember(project.id, user.id))
  }

  return {
    authenticate,
    canSee,
    isAdmin,
    project: (manage, fn) => async (request) => {
      const auth = await authenticate(request)
      if (!auth) return json(401, ERROR_BODIES.unauthorized)
      const { user, admin } = auth
      const id = request.params?.['id'] ?? ''
      const project = UUID.test(id) ? await store.findProject(id) : null
      if (!project || !(await canSee(project, user, admin))) return json(404, NOT_FOUND)
      if (manage && !admin && project.ownerId !== user.id) return json(403, ERROR_BODIES.forbidden)
      return fn(request, project, user, admin)
    },
  }
}
