import {
  type ApiKeyList,
  type CreatedApiKey,
  type CreatedUser,
  ERROR_BODIES,
  type MemberAddedAnswer,
  type MemberList,
  type MobileTokenList,
  type ProjectAnswer,
  type ProjectList,
  type RateLimitAnswer,
} from '@tis/schema'
import { StoreError } from '../errors'
import { type EngineRequest, type EngineResponse, json } from '../http'
import { generateToken, sha256Hex, TOKEN_PREFIXES, uuidv7 } from '../ids'
import { mobileTokenJson } from '../mobile'
import type { ManagementStore, ProjectRecord, RateLimitOverride, UserRecord } from '../ports'
import { DEFAULT_RATE_LIMITS, type RateLimitSettings } from '../rate-limit'
import type { ManagementOperation, ProjectAccess, ProjectOperationBody } from './access'
import { readBody } from './body'
import { createDataScrubbingOperations } from './data-scrubbing'
import { apiKeyJson, dsnBase, projectJson, rateLimitJson } from './json'
import { createRetentionOperations, type RetentionOperationsOptions } from './retention'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const NOT_FOUND = { error: 'Not found' } as const

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
  /** `GET /api/v1/projects/:id/retention`; 404 on a store without retention. */
  getRetention: ManagementOperation
  /** `PUT /api/v1/projects/:id/retention`. */
  setRetention: ManagementOperation
  /** `GET /api/v1/projects/:id/data_scrubbing` — anyone who sees the project. */
  getDataScrubbing: ManagementOperation
  /** `PUT /api/v1/projects/:id/data_scrubbing` — the owner or an administrator. */
  setDataScrubbing: ManagementOperation
}

/** Options of {@link createManagementApi}. */
export interface ManagementApiOptions {
  /** Users, projects, keys, members and mobile tokens. */
  readonly store: ManagementStore
  /** Who may see and manage which project (see {@link createProjectAccess}). */
  readonly access: ProjectAccess
  /**
   * The configured caps, shown where a project has no override; each field defaults as in
   * {@link DEFAULT_RATE_LIMITS}.
   */
  readonly rateLimits?: Partial<RateLimitSettings>
  /** @default () => new Date() */
  readonly now?: () => Date
  /**
   * The server's public URL (`SERVICE_PUBLIC_URL`), which projects' DSNs name; without it, the
   * request's `Host` (and `X-Forwarded-Proto`).
   */
  readonly publicUrl?: string
  /**
   * Called after keys are revoked, a project archived or its limits changed, to drop cached
   * credentials: pass the ingest API's `forgetCredentials` when both run in one process.
   */
  readonly onCredentialsChanged?: () => void
  /** Retention: the store's retention queries and `SERVICE_RETENTION_DAYS`. */
  readonly retention?: Omit<RetentionOperationsOptions, 'access'>
}

/** Creates the management operations over a store. */
export function createManagementApi(options: ManagementApiOptions): ManagementApi {
  const { store, access } = options
  const now = options.now ?? (() => new Date())
  const limits = { ...DEFAULT_RATE_LIMITS, ...options.rateLimits }

  /** Runs `fn` for an authenticated user, answering 401 otherwise. */
  function authed(
    fn: (request: EngineRequest, user: UserRecord, admin: boolean) => Promise<EngineResponse>,
  ): ManagementOperation {
    return async (request) => {
      const auth = await access.authenticate(request)
      if (!auth) return json(401, ERROR_BODIES.unauthorized)
      return fn(request, auth.user, auth.admin)
    }
  }

  /** Runs `fn` on the project of `:id` when the user may see it (404 otherwise); `manage` needs owner or admin (403). */
  const withProject = (manage: boolean, fn: ProjectOperationBody) => access.project(manage, fn)

  const baseOf = (request: EngineRequest) => dsnBase(request, options.publicUrl)

  async function setStatus(
    request: EngineRequest,
    project: ProjectRecord,
    status: 'active' | 'archived',
  ) {
    const updated = await store.setProjectStatus(project.id, status, now())
    options.onCredentialsChanged?.()
    return updated
      ? json(200, { project: projectJson(updated, baseOf(request)) } satisfies ProjectAnswer)
      : json(404, NOT_FOUND)
  }

  const unsupported: ManagementOperation = async () =>
    json(404, { error: 'this store keeps no retention settings' })
  const retention = options.retention
    ? createRetentionOperations({ ...options.retention, access })
    : { getRetention: unsupported, setRetention: unsupported }

  return {
    ...retention,
    ...createDataScrubbingOperations({
      store,
      access,
      ...(options.onCredentialsChanged ? { onChanged: options.onCredentialsChanged } : {}),
    }),
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
          user: { id: user.id, email: user.email, admin: access.isAdmin(user) },
          access_token: token,
        } satisfies CreatedUser)
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
      return json(201, { project: projectJson(project, baseOf(request)) } satisfies ProjectAnswer)
    }),

    listProjects: authed(async (request, user, admin) => {
      const projects = await store.listProjects(admin ? null : user.id)
      const base = baseOf(request)
      return json(200, {
        projects: projects.map((p) => projectJson(p, base)),
      } satisfies ProjectList)
    }),

    getProject: withProject(false, async (request, project) =>
      json(200, { project: projectJson(project, baseOf(request)) } satisfies ProjectAnswer),
    ),

    listApiKeys: withProject(false, async (_request, project) => {
      const keys = await store.listApiKeys(project.id)
      return json(200, { api_keys: keys.map(apiKeyJson) } satisfies ApiKeyList)
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
      return json(201, { api_key: apiKeyJson(key), token } satisfies CreatedApiKey)
    }),

    revokeApiKey: withProject(false, async (request, project) => {
      const keyId = request.params?.['key_id'] ?? ''
      const revoked = UUID.test(keyId) && (await store.revokeApiKey(project.id, keyId, now()))
      if (!revoked) return json(404, NOT_FOUND)
      options.onCredentialsChanged?.()
      return json(204, null)
    }),

    archiveProject: withProject(true, (request, project) =>
      setStatus(request, project, 'archived'),
    ),
    restoreProject: withProject(true, (request, project) => setStatus(request, project, 'active')),

    listMobileTokens: withProject(false, async (_request, project) => {
      const tokens = await store.listMobileTokens(project.id, now())
      return json(200, { mobile_tokens: tokens.map(mobileTokenJson) } satisfies MobileTokenList)
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
      json(200, { rate_limit: rateLimitJson(project.rateLimit, limits) } satisfies RateLimitAnswer),
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
      return json(200, {
        rate_limit: rateLimitJson(updated.rateLimit, limits),
      } satisfies RateLimitAnswer)
    }),

    addMember: withProject(true, async (request, project) => {
      const parsed = readBody(request, 'member')
      if (!parsed.ok) return parsed.response
      const member = await store.findUserByEmail(parsed.value!.email)
      if (!member) return json(422, { errors: ['email does not belong to a user'] })
      const added = await store.addMember(project.id, member.id, now())
      return json(added ? 201 : 200, {
        member: { project_id: project.id, user_id: member.id, email: member.email },
      } satisfies MemberAddedAnswer)
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
      } satisfies MemberList)
    }),
  }
}
