import type { CachedSourceFile, SourceSettingsRecord, SourceStore } from '@tis/ingest'
import { type SqlExecutor, textOrNull } from './executor'
import { isUuid } from './uuid'

// The cache key, hashed the same way on write and on read.
const KEY_HASH = `md5(k.scope || E'\\n' || k.repository || E'\\n' || k.commit_sha || E'\\n' || k.path)::uuid`

/** The source excerpt cache and each project's source settings. */
export function createSourceQueries(db: SqlExecutor): SourceStore {
  return {
    async findSourceFiles(keys) {
      if (keys.length === 0) return []
      const rows = await db.query<{
        scope: string
        repository: string
        commit_sha: string
        path: string
        status: 'ok' | 'not_found'
        content: string | null
        fetched_at: Date
      }>(
        `select f.scope, f.repository, f.commit_sha, f.path, f.status, f.content, f.fetched_at
           from source_files f
          where f.key_hash in (
            select ${KEY_HASH}
              from unnest($1::text[], $2::text[], $3::text[], $4::text[]) as k (scope, repository, commit_sha, path))`,
        [
          keys.map((k) => k.scope),
          keys.map((k) => k.repository),
          keys.map((k) => k.commitSha),
          keys.map((k) => k.path),
        ],
      )
      return rows.map(
        (r): CachedSourceFile => ({
          scope: r.scope,
          repository: r.repository,
          commitSha: r.commit_sha,
          path: r.path,
          status: r.status,
          content: r.content,
          fetchedAt: r.fetched_at,
        }),
      )
    },

    async saveSourceFile(file) {
      await db.query(
        `insert into source_files (key_hash, scope, repository, commit_sha, path, status, content, fetched_at)
         select ${KEY_HASH}, k.scope, k.repository, k.commit_sha, k.path, $5::text, $6::text, $7::timestamptz
           from (select $1::text as scope, $2::text as repository, $3::text as commit_sha, $4::text as path) k
         on conflict (key_hash) do update set
           status = excluded.status, content = excluded.content, fetched_at = excluded.fetched_at`,
        [
          file.scope,
          file.repository,
          file.commitSha,
          file.path,
          file.status,
          file.content,
          file.fetchedAt,
        ],
      )
    },

    async findSourceSettings(projectId) {
      if (!isUuid(projectId)) return null
      const [row] = await db.query(
        `select project_id::text, github_token_sealed, path_prefix, context_lines, github_api_url, updated_at
           from project_source_settings where project_id = $1::uuid`,
        [projectId],
      )
      if (!row) return null
      return {
        projectId: row['project_id'] as string,
        githubTokenSealed: textOrNull(row, 'github_token_sealed'),
        pathPrefix: textOrNull(row, 'path_prefix'),
        contextLines: (row['context_lines'] as number | null) ?? null,
        githubApiUrl: textOrNull(row, 'github_api_url'),
        updatedAt: row['updated_at'] as Date,
      } satisfies SourceSettingsRecord
    },

    async saveSourceSettings(s) {
      await db.query(
        `insert into project_source_settings
           (project_id, github_token_sealed, path_prefix, context_lines, github_api_url, updated_at)
         values ($1::uuid, $2::text, $3::text, $4::int, $5::text, $6::timestamptz)
         on conflict (project_id) do update set
           github_token_sealed = excluded.github_token_sealed, path_prefix = excluded.path_prefix,
           context_lines = excluded.context_lines, github_api_url = excluded.github_api_url,
           updated_at = excluded.updated_at`,
        [
          s.projectId,
          s.githubTokenSealed,
          s.pathPrefix,
          s.contextLines,
          s.githubApiUrl,
          s.updatedAt,
        ],
      )
    },
  }
}
