import type { ReadStore } from '@tis/ingest'
import type { SqlExecutor } from './executor'
import { conditions } from './read-conditions'
import { EVENT_COLUMNS, toEvent } from './read-rows'
import { eventSearchSql } from './search-sql'
import { isUuid } from './uuid'

/** The event list, one event, and the events that share its trace, request or session. */
export function createEventQueries(
  db: SqlExecutor,
): Pick<ReadStore, 'listEvents' | 'findEvent' | 'listRelatedEvents'> {
  return {
    async listEvents(query) {
      const c = conditions(query.projectId)
      if (query.eventType !== undefined) {
        c.where.push(`e.event_type = ${c.param(query.eventType, 'text')}`)
      }
      if (query.level !== undefined) c.where.push(`e.level = ${c.param(query.level, 'text')}`)
      c.is('e.environment', query.environment)
      c.is('e.release', query.release)
      c.equals('e.trace_id', query.traceId)
      c.equals('e.request_id', query.requestId)
      c.equals('e.session_id', query.sessionId)
      c.equals('e.user_id', query.userId)
      if (query.issueId !== undefined) {
        c.where.push(`e.issue_id = ${c.param(query.issueId, 'uuid')}`)
      }
      c.contains('e.message', query.q)
      eventSearchSql(c, query.search)
      if (query.since) c.where.push(`e.occurred_at >= ${c.param(query.since, 'timestamptz')}`)
      if (query.until) c.where.push(`e.occurred_at < ${c.param(query.until, 'timestamptz')}`)
      c.after('e.occurred_at', 'e.id', query.after)
      const rows = await db.query(
        `select ${EVENT_COLUMNS} from events e where e.project_id = $1::uuid${c.sql()}
         order by e.occurred_at desc, e.id desc limit ${c.param(query.limit, 'int')}`,
        c.params,
      )
      return rows.map(toEvent)
    },

    async findEvent(projectId, eventId) {
      if (!isUuid(eventId)) return null
      const rows = await db.query(
        `select ${EVENT_COLUMNS} from events e where e.project_id = $1::uuid and e.id = $2::uuid`,
        [projectId, eventId],
      )
      return rows[0] ? toEvent(rows[0]) : null
    },

    async listRelatedEvents(query) {
      const c = conditions(query.projectId)
      const any: string[] = []
      const match = (column: string, value: string | null) => {
        if (value === null) return
        const p = c.param(value, 'text')
        any.push(`(md5(${column}) = md5(${p}) and ${column} = ${p})`)
      }
      match('e.trace_id', query.traceId)
      match('e.request_id', query.requestId)
      match('e.session_id', query.sessionId)
      if (any.length === 0) return []
      c.where.push(`e.id <> ${c.param(query.eventId, 'uuid')}`, `(${any.join(' or ')})`)
      const rows = await db.query(
        `select ${EVENT_COLUMNS} from events e where e.project_id = $1::uuid${c.sql()}
         order by e.occurred_at desc, e.id desc limit ${c.param(query.limit, 'int')}`,
        c.params,
      )
      return rows.map(toEvent)
    },
  }
}
