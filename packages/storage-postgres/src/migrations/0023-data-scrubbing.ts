import type { Migration } from './migration'

/**
 * Data scrubbing: a project's own settings (`…/data_scrubbing`), `null` for the defaults. The
 * credential lookup reads them with the project, so the ingest path finds them in the
 * credential cache and a change reaches every instance within that cache's second.
 */
export const DATA_SCRUBBING_MIGRATION: Migration = {
  version: 23,
  name: 'data-scrubbing',
  sql: /* sql */ `
alter table projects add column data_scrubbing jsonb
  check (data_scrubbing is null or jsonb_typeof(data_scrubbing) = 'object');
`,
}
