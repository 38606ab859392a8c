import type { IssueTriageStore, ReadStore } from '@tis/ingest'
import type { SqlExecutor } from './executor'
import { conditions } from './read-conditions'
import { ISSUE_COLUMNS, toIssue } from './read-rows'
import { issueOrderSql, issueSearchSql } from './search-sql'
import { isUuid } from './uuid'

/** The issue inbox: one issue, a filtered page of them, a status change. */
export function createIssueQueries(
  db: SqlExecutor,
  triage: Pick<IssueTriageStore, 'changeIssues'>,
): Pick<ReadStore, 'findIssue' | 'listIssues' | 'setIssueStatus'> {
  return {
    async findIssue(projectId, issueId) {
      if (!isUuid(issueId)) return null
      const rows = await db.query(
        `select ${ISSUE_COLUMNS} from issues i where i.project_id = $1::uuid and i.id = $2::uuid`,
        [projectId, issueId],
      )
      return rows[0] ? toIssue(rows[0]) : null
    },

    async listIssues(query) {
      const c = conditions(query.projectId)
      if (query.status !== null) c.where.push(`i.status = ${c.param(query.status, 'text')}`)
      c.contains('i.title', query.q)
      if (query.environment !== undefined || query.release !== undefined) {
        const e = ['e.issue_id = i.id', 'e.project_id = i.project_id']
        if (query.environment !== undefined) {
          const p = c.param(query.environment, 'text')
          e.push(`e.environment = ${p}`)
        }
        if (query.release !== undefined) e.push(`e.release = ${c.param(query.release, 'text')}`)
        c.where.push(`exists (select 1 from events e where ${e.join(' and ')})`)
      }
      issueSearchSql(c, query.search)
      const order = issueOrderSql(c, query)
      const rows = await db.query(
        `select ${ISSUE_COLUMNS} from issues i where i.project_id = $1::uuid${c.sql()}
         ${order} limit ${c.param(query.limit, 'int')}`,
        c.params,
      )
      return rows.map(toIssue)
    },

    // A change with no user behind it (tis's own tools): its history entry names nobody.
    async setIssueStatus(projectId, issueId, status) {
      const by = { userId: null, at: new Date() }
      const { issues } = await triage.changeIssues(projectId, [issueId], { status }, by)
      return issues[0] ?? null
    },
  }
}
