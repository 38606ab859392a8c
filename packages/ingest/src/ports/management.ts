import type { IntegrationKind } from '@tis/schema'
import type { DataScrubbingSettings, MobileBinding, RateLimitOverride } from './credentials'
import type {
  ApiKeyRecord,
  MemberRecord,
  MobileTokenRecord,
  ProjectRecord,
  UserRecord,
} from './management-records'
import type { ProjectStatus } from './project-status'

/** Users and their access tokens. */
export interface UserStore {
  /** The user owning the access token with this digest, or `null`. */
  findUserByTokenDigest(digest: string): Promise<UserRecord | null>
  findUserByEmail(email: string): Promise<UserRecord | null>
  /**
   * Creates a user with one access token. Rejects with `StoreError` code `conflict` when the
   * email (compared case-insensitively) is taken.
   */
  createUser(input: {
    id: string
    email: string
    tokenDigest: string
    createdAt: Date
  }): Promise<UserRecord>
  /** Adds an access token to an existing user (bootstrap); a digest already present is kept. */
  addUserToken(userId: string, tokenDigest: string, createdAt: Date): Promise<void>
  /** True when any user exists (first-run detection). */
  hasUsers(): Promise<boolean>
}

/** The one lookup every project-scoped API needs (management, reads, source settings). */
export interface ProjectLookup {
  findProject(id: string): Promise<ProjectRecord | null>
  /** Whether the user is a member of the project (owners are not members). */
  isMember(projectId: string, userId: string): Promise<boolean>
}

/** Projects, their members, status and rate-limit overrides. */
export interface ProjectStore extends ProjectLookup {
  createProject(input: {
    id: string
    name: string
    integrationKind: IntegrationKind
    ownerId: string
    createdAt: Date
  }): Promise<ProjectRecord>
  /** Projects the user owns or is a member of; every project when `userId` is `null`. Oldest first. */
  listProjects(userId: string | null): Promise<readonly ProjectRecord[]>
  /** Adds a member; resolves `false` when already a member. */
  addMember(projectId: string, userId: string, createdAt: Date): Promise<boolean>
  /**
   * The project's owner (role `owner`), then its members in the order they were added; empty
   * when the project is unknown.
   */
  listMembers(projectId: string): Promise<readonly MemberRecord[]>
  /**
   * Sets a project's status. Archiving revokes every active API key and mobile token of the
   * project in the same transaction. Resolves the updated project, or `null` when unknown.
   */
  setProjectStatus(
    projectId: string,
    status: ProjectStatus,
    at: Date,
  ): Promise<ProjectRecord | null>
  /**
   * The project's own data-scrubbing settings: `null` when it never set them (the defaults
   * apply), `undefined` when there is no such project.
   */
  getDataScrubbing(projectId: string): Promise<DataScrubbingSettings | null | undefined>
  /** Replaces the project's data-scrubbing settings; `false` when there is no such project. */
  setDataScrubbing(projectId: string, settings: DataScrubbingSettings): Promise<boolean>
  /** Sets (or with `null` clears) a project's rate-limit overrides; `null` when unknown. */
  setProjectRateLimit(
    projectId: string,
    override: RateLimitOverride | null,
  ): Promise<ProjectRecord | null>
}

/** Project API keys. */
export interface ApiKeyStore {
  createApiKey(input: {
    id: string
    projectId: string
    name: string
    tokenDigest: string
    createdAt: Date
  }): Promise<ApiKeyRecord>
  /** Revokes a key of the project; resolves `false` when there is no such key. Idempotent. */
  revokeApiKey(projectId: string, keyId: string, at: Date): Promise<boolean>
  listApiKeys(projectId: string): Promise<readonly ApiKeyRecord[]>
}

/** What `POST /api/v1/mobile_ingest_tokens` stores: a token minted by the API key `parentKeyId`. */
export type NewMobileToken = MobileBinding & {
  readonly id: string
  readonly projectId: string
  readonly parentKeyId: string
  readonly tokenDigest: string
  readonly createdAt: Date
  readonly expiresAt: Date
}

/** Mobile ingest tokens (section 2.5): minted by the ingest API, listed and revoked by management. */
export interface MobileTokenStore {
  /** Stores a mobile token minted by the API key `parentKeyId`. */
  createMobileToken(input: NewMobileToken): Promise<MobileTokenRecord>
  /**
   * The project's live mobile tokens at `at`: not revoked, not expired, parent key not revoked.
   * Oldest first.
   */
  listMobileTokens(projectId: string, at: Date): Promise<readonly MobileTokenRecord[]>
  /** Revokes a mobile token of the project; `false` when there is no such token. Idempotent. */
  revokeMobileToken(projectId: string, tokenId: string, at: Date): Promise<boolean>
}

/** Users, projects, keys, members and mobile tokens: the management API's state. */
export interface ManagementStore extends UserStore, ProjectStore, ApiKeyStore, MobileTokenStore {}
