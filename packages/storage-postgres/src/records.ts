import type {
  ApiKeyRecord,
  CredentialKind,
  CredentialRecord,
  DataScrubbingSettings,
  EventType,
  IntegrationKind,
  MobileBinding,
  MobilePlatform,
  MobileTokenRecord,
  ProjectRecord,
  ProjectStatus,
  RateLimitOverride,
  UserRecord,
} from '@tis/ingest'
import { dateOrNull, type Row, textOrNull } from './executor'

// Column lists and row → record mappers shared by the management and credential queries. The
// casts are the trust boundary: the columns are constrained by the migrations (check
// constraints, not null) and written only by this package.

/** Columns of a {@link UserRecord}. */
export const USER_COLUMNS = 'u.id::text as id, u.email, u.created_at'

/** Maps a row selected with {@link USER_COLUMNS}. */
export function toUser(row: Row): UserRecord {
  return {
    id: row['id'] as string,
    email: row['email'] as string,
    createdAt: row['created_at'] as Date,
  }
}

/** Columns of a {@link ProjectRecord}. */
export const PROJECT_COLUMNS = `p.id::text as id, p.name, p.integration_kind, p.status,
  p.owner_id::text as owner_id, p.created_at, p.archived_at, p.rate_limit_requests,
  p.rate_limit_period_seconds, p.rate_limit_auth_failures, p.number, p.sentry_key`

/** The rate-limit overrides of a row with the `rate_limit_*` project columns. */
function toRateLimit(row: Row): RateLimitOverride | null {
  const requests = (row['rate_limit_requests'] as number | null) ?? null
  const periodSeconds = (row['rate_limit_period_seconds'] as number | null) ?? null
  const authFailureRequests = (row['rate_limit_auth_failures'] as number | null) ?? null
  if (requests === null && periodSeconds === null && authFailureRequests === null) return null
  return { requests, periodSeconds, authFailureRequests }
}

/** Maps a row selected with {@link PROJECT_COLUMNS}. */
export function toProject(row: Row): ProjectRecord {
  return {
    id: row['id'] as string,
    name: row['name'] as string,
    integrationKind: row['integration_kind'] as IntegrationKind,
    status: row['status'] as ProjectStatus,
    ownerId: row['owner_id'] as string,
    createdAt: row['created_at'] as Date,
    archivedAt: dateOrNull(row, 'archived_at'),
    rateLimit: toRateLimit(row),
    number: numberOrNull(row['number']),
    sentryKey: (row['sentry_key'] as string | undefined) ?? null,
  }
}

/** A bigint column (a string from postgres.js, a number or bigint from PGlite) as a number. */
function numberOrNull(v: unknown): number | null {
  if (typeof v === 'number') return v
  if (typeof v === 'bigint' || (typeof v === 'string' && /^\d+$/.test(v))) return Number(v)
  return null
}

/** Columns of an {@link ApiKeyRecord}. */
export const API_KEY_COLUMNS =
  'k.id::text as id, k.project_id::text as project_id, k.name, k.created_at, k.revoked_at'

/** Maps a row selected with {@link API_KEY_COLUMNS}. */
export function toApiKey(row: Row): ApiKeyRecord {
  return {
    id: row['id'] as string,
    projectId: row['project_id'] as string,
    name: row['name'] as string,
    createdAt: row['created_at'] as Date,
    revokedAt: dateOrNull(row, 'revoked_at'),
  }
}

/** Columns of a {@link MobileBinding} (api_keys `k`). */
const BINDING_COLUMNS = `k.platform, k.service, k.environment, k.release, k.session_id,
  k.allowed_event_types`

/**
 * Columns of a {@link CredentialRecord}: api_keys `k` joined with projects `p` and left-joined
 * with the parent key `pk`, whose revocation revokes the mobile tokens it minted.
 */
export const CREDENTIAL_COLUMNS = `k.id::text as id, k.kind, k.project_id::text as project_id,
  p.status as project_status, p.integration_kind, coalesce(k.revoked_at, pk.revoked_at) as revoked_at,
  k.expires_at, ${BINDING_COLUMNS}, p.rate_limit_requests, p.rate_limit_period_seconds,
  p.rate_limit_auth_failures, p.number as project_number, p.data_scrubbing`

/** Columns of a {@link MobileTokenRecord} (api_keys `k`). */
export const MOBILE_TOKEN_COLUMNS = `k.id::text as id, k.project_id::text as project_id,
  k.parent_key_id::text as parent_key_id, k.created_at, k.expires_at, k.revoked_at,
  ${BINDING_COLUMNS}`

function toBinding(row: Row): MobileBinding {
  return {
    platform: row['platform'] as MobilePlatform,
    service: row['service'] as string,
    environment: row['environment'] as string,
    release: textOrNull(row, 'release'),
    sessionId: textOrNull(row, 'session_id'),
    allowedEventTypes: (row['allowed_event_types'] as EventType[] | null) ?? [],
  }
}

/** Maps a row selected with {@link MOBILE_TOKEN_COLUMNS}. */
export function toMobileToken(row: Row): MobileTokenRecord {
  return {
    id: row['id'] as string,
    projectId: row['project_id'] as string,
    parentKeyId: textOrNull(row, 'parent_key_id'),
    createdAt: row['created_at'] as Date,
    expiresAt: row['expires_at'] as Date,
    revokedAt: dateOrNull(row, 'revoked_at'),
    ...toBinding(row),
  }
}

/** Maps a row selected with {@link CREDENTIAL_COLUMNS}. */
export function toCredential(row: Row): CredentialRecord {
  return {
    id: row['id'] as string,
    kind: row['kind'] as CredentialKind,
    projectId: row['project_id'] as string,
    projectStatus: row['project_status'] as ProjectStatus,
    integrationKind: row['integration_kind'] as IntegrationKind,
    revokedAt: dateOrNull(row, 'revoked_at'),
    expiresAt: dateOrNull(row, 'expires_at'),
    // Tokens minted before the binding columns existed have no platform: treat as unbound.
    binding: row['kind'] === 'mobile' && row['platform'] ? toBinding(row) : null,
    rateLimit: toRateLimit(row),
    projectNumber: numberOrNull(row['project_number']),
    dataScrubbing: toDataScrubbing(row['data_scrubbing']),
  }
}

/** A project's stored data-scrubbing settings (`projects.data_scrubbing`), `null` for none. */
export function toDataScrubbing(value: unknown): DataScrubbingSettings | null {
  const o = typeof value === 'string' ? (JSON.parse(value) as unknown) : value
  if (typeof o !== 'object' || o === null) return null
  const s = o as Record<string, unknown>
  const names = (v: unknown) =>
    Array.isArray(v) ? v.filter((n): n is string => typeof n === 'string') : []
  return {
    enabled: s['enabled'] !== false,
    extraFields: names(s['extra_fields']),
    safeFields: names(s['safe_fields']),
    scrubIpAddresses: s['scrub_ip_addresses'] === true,
  }
}

/** The column's value of data-scrubbing settings. */
export const dataScrubbingColumn = (s: DataScrubbingSettings) =>
  JSON.stringify({
    enabled: s.enabled,
    extra_fields: s.extraFields,
    safe_fields: s.safeFields,
    scrub_ip_addresses: s.scrubIpAddresses,
  })
