import type { Migration } from './migration'

/**
 * Assignees (docs/issues.md#assignees): the user an issue is assigned to, a member of its
 * project when assigned. No index: `assigned:` narrows the project's issues, which every inbox
 * query reads by project already, and the projection's issue upserts never touch the column.
 */
export const ISSUE_ASSIGNEES_MIGRATION: Migration = {
  version: 26,
  name: 'issue-assignees',
  sql: /* sql */ `
alter table issues add column assignee_id uuid references users (id) on delete set null;
`,
}
