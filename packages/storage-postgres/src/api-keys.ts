import type { CredentialStore, ManagementStore } from '@tis/ingest'
import type { SqlExecutor } from './executor'
import { API_KEY_COLUMNS, CREDENTIAL_COLUMNS, toApiKey, toCredential } from './records'
import { isUuid } from './uuid'

/** The API key methods of the management port, and the credential lookup. */
export type ApiKeyQueries = Pick<ManagementStore, 'createApiKey' | 'revokeApiKey' | 'listApiKeys'> &
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
          where k.token_digest = $1::text`,
        [digest],
      )
      return rows[0] ? toCredential(rows[0]) : null
    },
  }
}
