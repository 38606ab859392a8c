import type { Migration } from './migration'

/**
 * The index audit (docs/benchmarks.md, "Index audit of the read model"): what the
 * projection maintains for every row and no read needs.
 *
 * - The unique indexes on `legacy_id` of events, spans, issues and deployments: no statement
 *   looks a row up by it, and its values come from a sequence (the ingest log's for events and
 *   spans, an identity for the others), so they cannot repeat; the primary keys keep ids unique.
 * - The foreign keys of events and spans to projects and of events to issues: the projection is
 *   the only writer of both tables; an entry's project is checked when the ingest log accepts it
 *   (its own foreign key) and projects are never deleted; an event's `issue_id` is looked up in
 *   `issues` by the statement that writes it. Each cost a trigger call per row. The direct
 *   `writeBatch` checks its projects itself (`write-batch.ts`).
 */
export const READ_MODEL_INDEXES_MIGRATION: Migration = {
  version: 14,
  name: 'read-model-indexes',
  sql: /* sql */ `
alter table events drop constraint events_legacy_id_key,
  drop constraint events_project_id_fkey, drop constraint events_issue_id_fkey;
alter table spans drop constraint spans_legacy_id_key, drop constraint spans_project_id_fkey;
alter table issues drop constraint issues_legacy_id_key;
alter table deployments drop constraint deployments_legacy_id_key;
`,
}
