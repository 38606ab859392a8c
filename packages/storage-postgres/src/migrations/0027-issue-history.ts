import type { Migration } from './migration'

/**
 * A team's work on issues (docs/issues.md#comments-and-history): comments, and the history of
 * every change (status, assignee, comment added or deleted), each entry written by the same
 * statement as its change. Both are read one issue at a time, oldest first.
 */
export const ISSUE_HISTORY_MIGRATION: Migration = {
  version: 27,
  name: 'issue-history',
  sql: /* sql */ `
create table issue_comments (
  id uuid primary key,
  project_id uuid not null references projects (id) on delete cascade,
  issue_id uuid not null references issues (id) on delete cascade,
  author_id uuid references users (id) on delete set null,
  body text not null,
  created_at timestamptz not null
);
create index issue_comments_issue_idx on issue_comments (issue_id, created_at, id);

create table issue_history (
  id uuid primary key default gen_random_uuid(),
  project_id uuid not null references projects (id) on delete cascade,
  issue_id uuid not null references issues (id) on delete cascade,
  kind text not null check (kind in ('status', 'assignee', 'comment', 'comment_deleted')),
  -- The user's email when they acted: the entry says who, even once they are gone.
  actor text,
  data jsonb not null,
  created_at timestamptz not null
);
create index issue_history_issue_idx on issue_history (issue_id, created_at, id);
`,
}
