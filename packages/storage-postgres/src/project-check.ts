import { StoreError } from '@tis/ingest'

/**
 * The error of an append naming a project that does not exist. The ingest log and the events
 * and spans tables have no foreign key to `projects` (projects are archived, never deleted), so
 * the append counts the batch's unknown projects in its one statement and writes nothing when
 * there is one (`log/append.ts`).
 */
export const unknownProject = () =>
  new StoreError('not_found', 'the batch names a project that does not exist')
