import type { Migration } from './migration'

/**
 * Drops `analytics_outbox`: every record is acknowledged on the ingest log, and the analytics
 * export follows the log by cursor. The table is only dropped empty. Records still queued in
 * it are acknowledged records whose analytics copy was never sent, and nothing in the log
 * points to them (they were written outside it), so instead of guessing a way to replay them
 * the migration refuses, and the whole upgrade rolls back (every migration runs in one
 * transaction): the previous version, analytics enabled, exports them; an operator who does not
 * want them exported deletes them. The table is locked first, so a previous version still
 * running cannot queue a record between the count and the drop (its write fails instead, and is
 * not acknowledged). See docs/analytics.md, "Upgrading".
 */
export const DROP_ANALYTICS_OUTBOX_MIGRATION: Migration = {
  version: 22,
  name: 'drop-analytics-outbox',
  sql: /* sql */ `
lock table analytics_outbox in access exclusive mode;
do $$
declare
  pending bigint;
begin
  select count(*) into pending from analytics_outbox;
  if pending > 0 then
    raise exception using
      errcode = '55000',
      message = format(
        'analytics_outbox still holds %s records not exported to the analytics store: this '
        'version exports from the ingest log only and drops that table, so it applies no '
        'migration. Run the previous version with the analytics store enabled until '
        '"select count(*) from analytics_outbox" is 0, or, to give up their export, run '
        '"delete from analytics_outbox"; then start this version again '
        '(docs/analytics.md, Upgrading).', pending);
  end if;
end $$;
drop table analytics_outbox;
`,
}
