import { randomUUID } from 'node:crypto'
import type {
  IgnoreCondition,
  IssueActor,
  IssueChange,
  IssueCommentRecord,
  IssueHistoryEntry,
  IssueHistoryKind,
  IssueHistoryQuery,
  IssueTriageStore,
} from '@tis/ingest'
import type { Row, SqlExecutor, SqlParam } from './executor'
import { ISSUE_COLUMNS, toIssue } from './read-rows'
import { isUuid } from './uuid'

// A team's work on issues (docs/issues.md#comments-and-history): status and assignee changes,
// comments, and the history entry of each, written by the statement that makes the change.

/** The acting user's email as the entry keeps it (`$3`), `null` for tis itself. */
const ACTOR = '(select u.email from users u where u.id = $3::uuid)'
const emailOf = (column: string) => `(select u.email from users u where u.id = ${column})`

const COMMENT_COLUMNS = `c.id::text as id, c.issue_id::text as issue_id,
  c.author_id::text as author_id, ${emailOf('c.author_id')} as author_email, c.body, c.created_at`

function toComment(row: Row): IssueCommentRecord {
  const authorId = row['author_id']
  const email = row['author_email']
  return {
    id: row['id'] as string,
    issueId: row['issue_id'] as string,
    author:
      typeof authorId === 'string' && typeof email === 'string' ? { id: authorId, email } : null,
    body: row['body'] as string,
    createdAt: row['created_at'] as Date,
  }
}

function toEntry(row: Row): IssueHistoryEntry {
  const data = typeof row['data'] === 'string' ? JSON.parse(row['data']) : row['data']
  return {
    id: row['id'] as string,
    kind: row['kind'] as IssueHistoryKind,
    actor: (row['actor'] as string | null) ?? null,
    data: (data ?? {}) as Record<string, unknown>,
    createdAt: row['created_at'] as Date,
  }
}

/** An ignore condition as `issues.ignore_until` keeps it (the bases are added in SQL). */
export function ignoreJson(c: IgnoreCondition): Record<string, unknown> {
  if ('until' in c) return { until: c.until.toISOString() }
  if ('users' in c) return { users: c.users }
  return c.windowSeconds === undefined
    ? { count: c.count }
    : { count: c.count, window_seconds: c.windowSeconds }
}

/** `(created_at, id) > cursor`, oldest first, at most `limit`: the page of a history query. */
function page(table: string, query: IssueHistoryQuery, columns: string) {
  const params: SqlParam[] = [query.projectId, query.issueId]
  let after = ''
  if (query.after) {
    params.push(query.after.at, query.after.id)
    after = 'and (c.created_at, c.id) > ($3::timestamptz, $4::uuid)'
  }
  params.push(query.limit)
  return {
    text: `select ${columns} from ${table} c
      where c.project_id = $1::uuid and c.issue_id = $2::uuid ${after}
      order by c.created_at, c.id limit $${params.length}::int`,
    params,
  }
}

/** The comment and history statements of {@link IssueTriageStore}. */
export function createIssueTriageQueries(db: SqlExecutor): IssueTriageStore {
  return {
    async changeIssues(projectId, issueIds, change: IssueChange, by: IssueActor) {
      const ids = [...new Set(issueIds.filter(isUuid).map((id) => id.toLowerCase()))]
      if (ids.length === 0) return { issues: [], changed: 0 }
      // Entries of one change share their time; each issue's sorted pair of entry ids keeps
      // its status entry before its assignee entry.
      const pairs = ids.map(() => [randomUUID(), randomUUID()].sort())
      const params: SqlParam[] = [
        projectId,
        ids,
        by.userId,
        by.at,
        pairs.map((p) => p[0]!),
        pairs.map((p) => p[1]!),
      ]
      const sets = ['project_id = i.project_id']
      if (change.status !== undefined) {
        params.push(change.status)
        sets.push(`status = $${params.length}::text`)
        // Any status sets the condition: ignored until it, or (any other status) none.
        const ignore = change.status === 'ignored' ? change.ignoreUntil : undefined
        params.push(ignore ? JSON.stringify(ignoreJson(ignore)) : null)
        sets.push(`ignore_until = $${params.length}::text::jsonb
          || jsonb_build_object('count_base', i.count, 'users_base', i.users)`)
      }
      if (change.assigneeId !== undefined) {
        params.push(change.assigneeId)
        sets.push(`assignee_id = $${params.length}::uuid`)
      }
      // `old` locks the rows in id order (two bulk changes never deadlock) and keeps what they
      // were; one entry per issue and field that changed.
      const rows = await db.query(
        `with input as (
           select * from unnest($2::uuid[], $5::uuid[], $6::uuid[]) as t(id, status_entry, assignee_entry)
         ), old as (
           select i.id, i.status, i.assignee_id, input.status_entry, input.assignee_entry
             from issues i join input on input.id = i.id
             where i.project_id = $1::uuid order by i.id for update of i
         ), changed as (
           update issues i set ${sets.join(', ')} from old where i.id = old.id
           returning i.*, old.status as old_status, old.assignee_id as old_assignee_id,
             old.status_entry, old.assignee_entry
         ), history as (
           insert into issue_history (id, project_id, issue_id, kind, actor, data, created_at)
           select e.id, i.project_id, i.id, e.kind, ${ACTOR}, e.data, $4::timestamptz
             from changed i cross join lateral (values
               (i.status_entry, 'status', jsonb_build_object('from', i.old_status, 'to', i.status),
                 i.status is distinct from i.old_status),
               (i.assignee_entry, 'assignee', jsonb_build_object('from', ${emailOf('i.old_assignee_id')},
                 'to', ${emailOf('i.assignee_id')}), i.assignee_id is distinct from i.old_assignee_id)
             ) as e(id, kind, data, differs)
             where e.differs
           returning issue_id
         )
         select ${ISSUE_COLUMNS}, (select count(distinct issue_id)::int from history) as changed_issues
           from changed i order by i.id`,
        params,
      )
      return {
        issues: rows.map(toIssue),
        changed: Number(rows[0]?.['changed_issues'] ?? 0),
      }
    },

    async addIssueComment(c) {
      if (!isUuid(c.issueId)) return null
      const rows = await db.query(
        `with issue as (
           select id, project_id from issues where project_id = $1::uuid and id = $2::uuid
         ), c as (
           insert into issue_comments (id, project_id, issue_id, author_id, body, created_at)
           select $4::uuid, issue.project_id, issue.id, $3::uuid, $5::text, $6::timestamptz
             from issue
           returning *
         ), history as (
           insert into issue_history (project_id, issue_id, kind, actor, data, created_at)
           select c.project_id, c.issue_id, 'comment', ${ACTOR},
             jsonb_build_object('comment_id', c.id), c.created_at
             from c
         )
         select ${COMMENT_COLUMNS} from c`,
        [c.projectId, c.issueId, c.authorId, c.id, c.body, c.createdAt],
      )
      return rows[0] ? toComment(rows[0]) : null
    },

    async listIssueComments(query) {
      if (!isUuid(query.issueId)) return []
      const { text, params } = page('issue_comments', query, COMMENT_COLUMNS)
      return (await db.query(text, params)).map(toComment)
    },

    async findIssueComment(projectId, issueId, commentId) {
      if (!isUuid(issueId) || !isUuid(commentId)) return null
      const rows = await db.query(
        `select ${COMMENT_COLUMNS} from issue_comments c
           where c.project_id = $1::uuid and c.issue_id = $2::uuid and c.id = $3::uuid`,
        [projectId, issueId, commentId],
      )
      return rows[0] ? toComment(rows[0]) : null
    },

    async deleteIssueComment(projectId, issueId, commentId, by) {
      if (!isUuid(issueId) || !isUuid(commentId)) return false
      const rows = await db.query(
        `with c as (
           delete from issue_comments
             where project_id = $1::uuid and issue_id = $2::uuid and id = $4::uuid
           returning project_id, issue_id, id
         ), history as (
           insert into issue_history (project_id, issue_id, kind, actor, data, created_at)
           select c.project_id, c.issue_id, 'comment_deleted', ${ACTOR},
             jsonb_build_object('comment_id', c.id), $5::timestamptz
             from c
         )
         select count(*)::int as n from c`,
        [projectId, issueId, by.userId, commentId, by.at],
      )
      return Number(rows[0]?.['n'] ?? 0) > 0
    },

    async listIssueHistory(query) {
      if (!isUuid(query.issueId)) return []
      const { text, params } = page(
        'issue_history',
        query,
        'c.id::text as id, c.kind, c.actor, c.data, c.created_at',
      )
      return (await db.query(text, params)).map(toEntry)
    },
  }
}
