import type { Migration } from './migration'

/**
 * The ingest log's foreign key to `projects` was a trigger call per appended row, about a sixth
 * of the append statement's time. Projects are never deleted (only archived), so
 * the append checks the batch's distinct projects once instead (`src/log/append.ts`), which
 * keeps "an entry of an unknown project is never acknowledged".
 */
export const INGEST_LOG_PROJECT_CHECK_MIGRATION: Migration = {
  version: 15,
  name: 'ingest-log-project-check',
  sql: /* sql */ `
alter table ingest_log drop constraint ingest_log_project_id_fkey;
`,
}
