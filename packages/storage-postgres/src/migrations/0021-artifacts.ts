import type { Migration } from './migration'

/**
 * Source maps: what Sentry's tooling uploads. `artifact_chunks` holds the chunks of
 * uploads in progress, per uploading user, until a bundle is assembled from them (pruned after a
 * day by the retention pass). `artifact_blobs` holds each distinct content once, by SHA-1,
 * whatever project or bundle uses it: a rebuild that changes one file stores one new blob.
 * `artifact_bundles` is one upload per project (its checksum makes a repeated upload a no-op),
 * `artifact_files` its files, found by `(project_id, debug_id)` and by
 * `(project_id, release, url)` with the dist compared by `is not distinct from` (null: no dist).
 * A file's blob is a foreign key: a blob is only deleted once no file uses it
 * (`deleteOrphanBlobs` locks the candidates first, so a concurrent upload reusing one waits).
 */
export const ARTIFACTS_MIGRATION: Migration = {
  version: 21,
  name: 'artifacts',
  sql: /* sql */ `
create table artifact_chunks (
  owner_id text not null,
  sha1 text not null,
  content bytea not null,
  created_at timestamptz not null,
  primary key (owner_id, sha1)
);
create index artifact_chunks_created_idx on artifact_chunks (created_at);

create table artifact_blobs (
  sha1 text primary key,
  content bytea not null,
  size bigint not null
);

create table artifact_bundles (
  id uuid primary key,
  project_id uuid not null references projects (id) on delete cascade,
  checksum text not null,
  bundle_debug_id text not null,
  release text,
  dist text,
  file_count integer not null,
  size bigint not null,
  uploaded_by text,
  uploaded_at timestamptz not null,
  last_used_at timestamptz not null,
  unique (project_id, checksum)
);
create index artifact_bundles_project_uploaded_idx on artifact_bundles (project_id, uploaded_at);
create index artifact_bundles_project_used_idx on artifact_bundles (project_id, last_used_at);

create table artifact_files (
  bundle_id uuid not null references artifact_bundles (id) on delete cascade,
  position integer not null,
  project_id uuid not null,
  url text not null,
  type text not null,
  debug_id text,
  headers jsonb not null,
  sha1 text not null references artifact_blobs (sha1),
  size bigint not null,
  release text,
  dist text,
  primary key (bundle_id, position)
);
create index artifact_files_debug_id_idx on artifact_files (project_id, debug_id)
  where debug_id is not null;
create index artifact_files_url_idx on artifact_files (project_id, release, url, dist)
  where release is not null;
create index artifact_files_sha1_idx on artifact_files (sha1);
`,
}
