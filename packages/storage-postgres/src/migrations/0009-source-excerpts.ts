import type { Migration } from './migration'

/**
 * Source excerpts:
 *
 * - `source_files` caches files fetched from the code host. A file at a commit never changes, so
 *   `ok` rows are kept for good; `not_found` rows are trusted for a short while by the engine and
 *   then replaced. The key is (scope, repository, commit_sha, path) — the scope names whose
 *   token fetched it — hashed into `key_hash` so long paths and API URLs never exceed a btree
 *   entry.
 * - `project_source_settings` holds each project's settings; the GitHub token only sealed
 *   (AES-256-GCM with a key derived from SERVICE_SECRET_KEY), never in clear.
 */
export const SOURCE_EXCERPTS_MIGRATION: Migration = {
  version: 9,
  name: 'source-excerpts',
  sql: /* sql */ `
create table source_files (
  key_hash uuid primary key,
  scope text not null,
  repository text not null,
  commit_sha text not null,
  path text not null,
  status text not null check (status in ('ok', 'not_found')),
  content text,
  fetched_at timestamptz not null
);

create table project_source_settings (
  project_id uuid primary key references projects (id) on delete cascade,
  github_token_sealed text,
  path_prefix text,
  context_lines integer check (context_lines between 0 and 50),
  github_api_url text,
  updated_at timestamptz not null
);
`,
}
