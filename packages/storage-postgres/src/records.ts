import type {
  ApiKeyRecord,
  CredentialKind,
  CredentialRecord,
  IntegrationKind,
  ProjectRecord,
  ProjectStatus,
  UserRecord,
} from '@tis/ingest'
import type { Row } from './executor'

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
  p.owner_id::text as owner_id, p.created_at, p.archived_at`

/** Maps a row selected with {@link PROJECT_COLUMNS}. */
export function toProject(row: Row): ProjectRecord {
  return {
    id: row['id'] as string,
    name: row['name'] as string,
    integrationKind: row['integration_kind'] as IntegrationKind,
    status: row['status'] as ProjectStatus,
    ownerId: row['owner_id'] as string,
    createdAt: row['created_at'] as Date,
    archivedAt: (row['archived_at'] as Date | null) ?? null,
  }
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
    revokedAt: (row['revoked_at'] as Date | null) ?? null,
  }
}

/** Columns of a {@link CredentialRecord} (api_keys `k` joined with projects `p`). */
export const CREDENTIAL_COLUMNS = `k.id::text as id, k.kind, k.project_id::text as project_id,
  p.status as project_status, p.integration_kind, k.revoked_at, k.expires_at`

/** Maps a row selected with {@link CREDENTIAL_COLUMNS}. */
export function toCredential(row: Row): CredentialRecord {
  return {
    id: row['id'] as string,
    kind: row['kind'] as CredentialKind,
    projectId: row['project_id'] as string,
    projectStatus: row['project_status'] as ProjectStatus,
    integrationKind: row['integration_kind'] as IntegrationKind,
    revokedAt: (row['revoked_at'] as Date | null) ?? null,
    expiresAt: (row['expires_at'] as Date | null) ?? null,
  }
}
