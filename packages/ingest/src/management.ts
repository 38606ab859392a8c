import {
  ERROR_BODIES,
  MANAGEMENT_FIELDS,
  type ManagementEnvelopeKey,
  type ManagementRecords,
  parseManagementEnvelope,
} from '@tis/schema'
import { StoreError } from './errors'
import { type EngineRequest, type EngineResponse, json, readHeader } from './http'
import { generateToken, sha256Hex, TOKEN_PREFIXES, uuidv7 } from './ids'
import { type ManagementBodySpec, readManagementBody } from './management-body'
import { mobileTokenJson } from './mobile'
import type {
  ApiKeyRecord,
  ManagementStore,
  ProjectRecord,
  RateLimitOverride,
  UserRecord,
} from './ports'

/** The email of the administrator created on first run when no admin email is configured. */
export const DEFAULT_ADMIN_EMAIL = 'admin@localhost'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const NOT_FOUND = { error: 'Not found' } as const

/** One management operation. */
export type ManagementOperation = (request: EngineRequest) => Promise<EngineResponse>

/** What a project-scoped operation does once access is settled. */
export type ProjectOperationBody = (
  request: EngineRequest,
  project: ProjectRecord,
  user: UserRecord,
  admin: boolean,
) => Promise<EngineResponse>

/**
 * The access rule of every project-scoped operation (management, reads, source settings): 401
 * without a user access token; 404 when `:id` is not a project the user may see (owner, member
 * or administrator), so other projects' ids are not disclosed; with `manage`, 403 unless the user
 * owns the project or is an administrator. Otherwise runs `fn`.
 */
export function projectOperation(
  access: Pick<ManagementApi, 'authenticate' | 'canSee'>,
  findProject: (id: string) => Promise<ProjectRecord | null>,
  manage: boolean,
  fn: ProjectOperationBody,
): ManagementOperation {
  return async (request) => {
    const auth = await access.authenticate(request)
    if (!auth) return json(401, ERROR_BODIES.unauthorized)
    const { user, admin } = auth
    const id = request.params?.['id'] ?? ''
    const project = UUID.test(id) ? await findProject(id) : null
    if (!project || !(await access.canSee(project, user, admin))) return json(404, NOT_FOUND)
    if (manage && !admin && project.ownerId !== user.id) return json(403, ERROR_BODIES.forbidden)
    return fn(request, project, user, admin)
  }
}

/** The management API ("project settings" of section 5). */
export interface ManagementApi {
  /** `POST /api/v1/users` — application administrators only. */
  createUser: ManagementOperation
  /** `POST /api/v1/projects` */
  createProject: ManagementOperation
  /** `GET /api/v1/projects` */
  listProjects: ManagementOperation
  /** `GET /api/v1/projects/:id` */
  getProject: ManagementOperation
  /** `GET /api/v1/projects/:id/api_keys` */
  listApiKeys: ManagementOperation
  /** `POST /api/v1/projects/:id/api_keys` */
  createApiKey: ManagementOperation
  /** `DELETE /api/v1/projects/:id/api_keys/:key_id` */
  revokeApiKey: ManagementOperation
  /** `POST /api/v1/projects/:id/archive` */
  archiveProject: ManagementOperation
  /** `POST /api/v1/projects/:id/restore` */
  restoreProject: ManagementOperation
  /** `POST /api/v1/projects/:id/members` */
  addMember: ManagementOperation
  /** `GET /api/v1/projects/:id/members` — the owner first, then members; anyone who sees the project. */
  listMembers: ManagementOperation
  /** `GET /api/v1/projects/:id/mobile_tokens` — live tokens only, never their plaintext. */
  listMobileTokens: ManagementOperation
  /** `DELETE /api/v1/projects/:id/mobile_tokens/:token_id` */
  revokeMobileToken: ManagementOperation
  /** `GET /api/v1/projects/:id/rate_limits` — the effective limits, to anyone who sees the project. */
  getRateLimits: ManagementOperation
  /** `PUT /api/v1/projects/:id/rate_limits` — application administrators only (section 5.8). */
  setRateLimits: ManagementOperation
  /**
   * The user behind a request's access token (or its in-process `user`), or `null` (for other
   * packages' routes).
   */
  authenticate(request: EngineRequest): Promise<{ user: UserRecord; admin: boolean } | null>
  /** Whether the user may see the project: owner, member or administrator. */
  canSee(project: ProjectRecord, user: UserRecord, admin: boolean): Promise<boolean>
}

/** Options of {@link createManagementApi}. */
export interface ManagementApiOptions {
  readonly store: ManagementStore
  readonly adminEmails: readonly string[]
  /** The configured caps, shown where a project has no override. */
  readonly rateLimits: {
    readonly requests: number
    readonly periodSeconds: number
    readonly authFailures: number
  }
  readonly now: () => Date
  /** Called after keys are revoked or a project archived, to drop cached credentials. */
  readonly onCredentialsChanged?: () => void
}

/** JSON of a project. */
export function projectJson(p: ProjectRecord) {
  return {
    id: p.id,
    name: p.name,
    integration_kind: p.integrationKind,
    status: p.status,
    owner_id: p.ownerId,
    created_at: p.createdAt.toISOString(),
    archived_at: p.archivedAt?.toISOString() ?? null,
  }
}

/** The effective limits of a project and which of them are overrides. */
function rateLimitJson(
  override: RateLimitOverride | null,
  defaults: ManagementApiOptions['rateLimits'],
) {
  return {
    requests: override?.requests ?? defaults.requests,
    period_seconds: override?.periodSeconds ?? defaults.periodSeconds,
    auth_failure_requests: override?.authFailureRequests ?? defaults.authFailures,
    overrides: {
      requests: override?.requests ?? null,
      period_seconds: override?.periodSeconds ?? null,
      auth_failure_requests: override?.authFailureRequests ?? null,
    },
  }
}

function apiKeyJson(k: ApiKeyRecord) {
  return {
    id: k.id,
    name: k.name,
    created_at: k.createdAt.toISOString(),
    revoked_at: k.revokedAt?.toISOString() ?? null,
  }
}

/** The outcome of {@link readBody}: the parsed fields (`null`: a clearing envelope), or the answer. */
type BodyOf<K extends ManagementEnvelopeKey> =
  | { ok: true; value: ManagementRecords[K] | null }
  | { ok: false; response: EngineResponse }

/**
 * Reads a management body: {@link readManagementBody} decides whether the body is usable at all
 * (the same rule on every route), then the envelope's fields are validated by `@tis/schema`.
 */
function readBody<K extends ManagementEnvelopeKey>(
  request: EngineRequest,
  key: K,
  spec: Omit<ManagementBodySpec, 'key' | 'fields'> = {},
): BodyOf<K> {
  const body = readManagementBody(request, { key, fields: MANAGEMENT_FIELDS[key], ...spec })
  if (!body.ok) return body
  if (body.value === null) return { ok: true, value: null }
  if (Object.keys(body.value).length === 0) return { ok: true, value: {} as ManagementRecords[K] }
  const parsed = parseManagementEnvelope(key, { [key]: body.value })
  if (parsed.ok) return parsed
  return {
    ok: false,
    response:
      parsed.status === 400
        ? json(400, { error: parsed.error })
        : json(422, { errors: parsed.errors }),
  }
}

/** Creates the management operations over a store. */
export function createManagementApi(options: ManagementApiOptions): ManagementApi {
  const { store, now } = options
  const admins = new Set(
    (options.adminEmails.length > 0 ? options.adminEmails : [DEFAULT_ADMIN_EMAIL]).map((e) =>
      e.trim().toLowerCase(),
    ),
  )
  const isAdmin = (user: UserRecord) => admins.has(user.email.toLowerCase())

  async function authenticate(request: EngineRequest) {
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

  /** Runs `fn` for an authenticated user, answering 401 otherwise. */
  function authed(
    fn: (request: EngineRequest, user: UserRecord, admin: boolean) => Promise<EngineResponse>,
  ): ManagementOperation {
    return async (request) => {
      const auth = await authenticate(request)
      if (!auth) return json(401, ERROR_BODIES.unauthorized)
      return fn(request, auth.user, auth.admin)
    }
  }

  /** Runs `fn` on the project of `:id` when the user may see it (404 otherwise); `manage` needs owner or admin (403). */
  const withProject = (manage: boolean, fn: ProjectOperationBody) =>
    projectOperation({ authenticate, canSee }, (id) => store.findProject(id), manage, fn)

  async function setStatus(project: ProjectRecord, status: 'active' | 'archived') {
    const updated = await store.setProjectStatus(project.id, status, now())
    options.onCredentialsChanged?.()
    return updated ? json(200, { project: projectJson(updated) }) : json(404, NOT_FOUND)
  }

  return {
    authenticate,
    canSee,

    createUser: authed(async (request, _user, admin) => {
      if (!admin) return json(403, ERROR_BODIES.forbidden)
      const parsed = readBody(request, 'user')
      if (!parsed.ok) return parsed.response
      const token = generateToken(TOKEN_PREFIXES.user)
      try {
        const user = await store.createUser({
          id: uuidv7(),
          email: parsed.value!.email,
          tokenDigest: sha256Hex(token),
          createdAt: now(),
        })
        return json(201, {
          user: { id: user.id, email: user.email, admin: isAdmin(user) },
          access_token: token,
        })
      } catch (error) {
        if (StoreError.is(error) && error.code === 'conflict') {
          return json(422, { errors: ['email has already been taken'] })
        }
        throw error
      }
    }),

    createProject: authed(async (request, user) => {
      const parsed = readBody(request, 'project')
      if (!parsed.ok) return parsed.response
      const value = parsed.value!
      const project = await store.createProject({
        id: uuidv7(),
        name: value.name.trim(),
        integrationKind: value.integration_kind,
        ownerId: user.id,
        createdAt: now(),
      })
      return json(201, { project: projectJson(project) })
    }),

    listProjects: authed(async (_request, user, admin) => {
      const projects = await store.listProjects(admin ? null : user.id)
      return json(200, { projects: projects.map(projectJson) })
    }),

    getProject: withProject(false, async (_request, project) =>
      json(200, { project: projectJson(project) }),
    ),

    listApiKeys: withProject(false, async (_request, project) => {
      const keys = await store.listApiKeys(project.id)
      return json(200, { api_keys: keys.map(apiKeyJson) })
    }),

    createApiKey: withProject(false, async (request, project) => {
      const parsed = readBody(request, 'api_key', { optional: true })
      if (!parsed.ok) return parsed.response
      if (project.status !== 'active') {
        return json(422, { errors: ['project is archived; restore it before creating keys'] })
      }
      const token = generateToken(TOKEN_PREFIXES.apiKey)
      const key = await store.createApiKey({
        id: uuidv7(),
        projectId: project.id,
        name: parsed.value?.name?.trim() || 'default',
        tokenDigest: sha256Hex(token),
        createdAt: now(),
      })
      return json(201, { api_key: apiKeyJson(key), token })
    }),

    revokeApiKey: withProject(false, async (request, project) => {
      const keyId = request.params?.['key_id'] ?? ''
      const revoked = UUID.test(keyId) && (await store.revokeApiKey(project.id, keyId, now()))
      if (!revoked) return json(404, NOT_FOUND)
      options.onCredentialsChanged?.()
      return json(204, null)
    }),

    archiveProject: withProject(true, (_request, project) => setStatus(project, 'archived')),
    restoreProject: withProject(true, (_request, project) => setStatus(project, 'active')),

    listMobileTokens: withProject(false, async (_request, project) => {
      const tokens = await store.listMobileTokens(project.id, now())
      return json(200, { mobile_tokens: tokens.map(mobileTokenJson) })
    }),

    revokeMobileToken: withProject(false, async (request, project) => {
      const tokenId = request.params?.['token_id'] ?? ''
      const revoked =
        UUID.test(tokenId) && (await store.revokeMobileToken(project.id, tokenId, now()))
      if (!revoked) return json(404, NOT_FOUND)
      options.onCredentialsChanged?.()
      return json(204, null)
    }),

    getRateLimits: withProject(false, async (_request, project) =>
      json(200, { rate_limit: rateLimitJson(project.rateLimit, options.rateLimits) }),
    ),

    setRateLimits: withProject(false, async (request, project, _user, admin) => {
      if (!admin) return json(403, ERROR_BODIES.forbidden)
      // `{"rate_limit": null}` clears every override (documented); `{}` and `null` are refused.
      const parsed = readBody(request, 'rate_limit', { nullClears: true })
      if (!parsed.ok) return parsed.response
      const v = parsed.value
      const override: RateLimitOverride = {
        requests: v?.requests ?? null,
        periodSeconds: v?.period_seconds ?? null,
        authFailureRequests: v?.auth_failure_requests ?? null,
      }
      const empty = Object.values(override).every((x) => x === null)
      const updated = await store.setProjectRateLimit(project.id, empty ? null : override)
      if (!updated) return json(404, NOT_FOUND)
      // Other instances pick the change up with the credential cache (within a second).
      options.onCredentialsChanged?.()
      return json(200, { rate_limit: rateLimitJson(updated.rateLimit, options.rateLimits) })
    }),

    addMember: withProject(true, async (request, project) => {
      const parsed = readBody(request, 'member')
      if (!parsed.ok) return parsed.response
      const member = await store.findUserByEmail(parsed.value!.email)
      if (!member) return json(422, { errors: ['email does not belong to a user'] })
      const added = await store.addMember(project.id, member.id, now())
      return json(added ? 201 : 200, {
        member: { project_id: project.id, user_id: member.id, email: member.email },
      })
    }),

    listMembers: withProject(false, async (_request, project) => {
      const members = await store.listMembers(project.id)
      return json(200, {
        members: members.map((m) => ({
          user_id: m.userId,
          email: m.email,
          role: m.role,
          added_at: m.addedAt.toISOString(),
        })),
      })
    }),
  }
}
