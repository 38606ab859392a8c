import type { CredentialStore, ManagementStore } from '@tis/ingest'
import type { SqlExecutor } from './executor'
import {
  API_KEY_COLUMNS,
  CREDENTIAL_COLUMNS,
  MOBILE_TOKEN_COLUMNS,
  toApiKey,
  toCredential,
  toMobileToken,
} from './records'
import { isUuid } from './uuid'

/** The API key methods of the management port, and the credential lookup. */
export type ApiKeyQueries = Pick<
  ManagementStore,
  | 'createApiKey'
  | 'revokeApiKey'
  | 'listApiKeys'
  | 'createMobileToken'
  | 'listMobileTokens'
  | 'revokeMobileToken'
> &
  CredentialStore

/** Project API keys (kind `api_key`) and the credential lookup over keys and mobile tokens. */
export function createApiKeyQueries(db: SqlExecutor): ApiKeyQueries {
  return {
    async createApiKey(input) {
      const rows = await db.query(
        `insert into api_keys as k (id, project_id, kind, name, token_digest, created_at)
         values ($1::uuid, $2::uuid, 'api_key', $3::text, $4::text, $5::timestamptz)
         returning ${API_KEY_COLUMNS}`,
        [input.id, input.projectId, input.name, input.tokenDigest, input.createdAt],
      )
      return toApiKey(rows[0]!)
    },

    async revokeApiKey(projectId, keyId, at) {
      if (!isUuid(projectId) || !isUuid(keyId)) return false
      // Idempotent: an already revoked key keeps its first revocation time.
      const rows = await db.query(
        `update api_keys set revoked_at = coalesce(revoked_at, $3::timestamptz)
          where id = $2::uuid and project_id = $1::uuid and kind = 'api_key'
          returning id`,
        [projectId, keyId, at],
      )
      return rows.length > 0
    },

    async listApiKeys(projectId) {
      if (!isUuid(projectId)) return []
      const rows = await db.query(
        `select ${API_KEY_COLUMNS} from api_keys k
          where k.project_id = $1::uuid and k.kind = 'api_key'
          order by k.created_at, k.id`,
        [projectId],
      )
      return rows.map(toApiKey)
    },

    async findCredential(digest) {
      const rows = await db.query(
        `select ${CREDENTIAL_COLUMNS} from api_keys k join projects p on p.id = k.project_id
          left join api_keys pk on pk.id = k.parent_key_id
          where k.token_digest = $1::text`,
        [digest],
      )
      return rows[0] ? toCredential(rows[0]) : null
    },

    async createMobileToken(input) {
      const rows = await db.query(
        `insert into api_keys as k (id, project_id, kind, name, token_digest, created_at,
           expires_at, platform, service, environment, release, session_id, allowed_event_types,
           parent_key_id)
         values ($1::uuid, $2::uuid, 'mobile', '', $3::text, $4::timestamptz, $5::timestamptz,
           $6::text, $7::text, $8::text, $9::text, $10::text, $11::text[], $12::uuid)
         returning ${MOBILE_TOKEN_COLUMNS}`,
        [
          input.id,
          input.projectId,
          input.tokenDigest,
          input.createdAt,
          input.expiresAt,
          input.platform,
          input.service,
          input.environment,
          input.release,
          input.sessionId,
          input.allowedEventTypes,
          input.parentKeyId,
        ],
      )
      return toMobileToken(rows[0]!)
    },

    async listMobileTokens(projectId, at) {
      if (!isUuid(projectId)) return []
      const rows = await db.query(
        `select ${MOBILE_TOKEN_COLUMNS} from api_keys k
           left join api_keys pk on pk.id = k.parent_key_id
          where k.project_id = $1::uuid and k.kind = 'mobile' and k.revoked_at is null
            and k.expires_at > $2::timestamptz and pk.revoked_at is null
          order by k.created_at, k.id`,
        [projectId, at],
      )
      return rows.map(toMobileToken)
    },

    async revokeMobileToken(projectId, tokenId, at) {
      if (!isUuid(projectId) || !isUuid(tokenId)) return false
      const rows = await db.query(
        `update api_keys set revoked_at = coalesce(revoked_at, $3::timestamptz)
          where id = $2::uuid and project_id = $1::uuid and kind = 'mobile'
          returning id`,
        [projectId, tokenId, at],
      )
      return rows.length > 0
    },
  }
}
