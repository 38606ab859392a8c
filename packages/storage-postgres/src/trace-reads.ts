import type { ReadStore } from '@tis/ingest'
import type { SqlExecutor } from './executor'
import { conditions } from './read-conditions'
import { SPAN_COLUMNS, toSpan } from './span-rows'

/** The spans of one trace, and the root spans (traces) of a project. */
export function createTraceQueries(
  db: SqlExecutor,
): Pick<ReadStore, 'listTraceSpans' | 'listRootSpans'> {
  return {
    async listTraceSpans(projectId, traceId, limit) {
      const c = conditions(projectId)
      c.equals('s.trace_id', traceId)
      const rows = await db.query(
        `select ${SPAN_COLUMNS} from spans s where s.project_id = $1::uuid${c.sql()}
         order by s.started_at, s.id limit ${c.param(limit, 'int')}`,
        c.params,
      )
      return rows.map(toSpan)
    },

    async listRootSpans(query) {
      const c = conditions(query.projectId)
      c.where.push(
        's.parent_span_id is null',
        `s.kind in (${query.kinds.map((k) => c.param(k, 'text')).join(', ')})`,
      )
      if (query.since) c.where.push(`s.started_at >= ${c.param(query.since, 'timestamptz')}`)
      if (query.until) c.where.push(`s.started_at < ${c.param(query.until, 'timestamptz')}`)
      c.is('s.environment', query.environment)
      c.is('s.release', query.release)
      c.contains('s.name', query.q)
      c.after('s.started_at', 's.id', query.after)
      const rows = await db.query(
        `select ${SPAN_COLUMNS} from spans s where s.project_id = $1::uuid${c.sql()}
         order by s.started_at desc, s.id desc limit ${c.param(query.limit, 'int')}`,
        c.params,
      )
      return rows.map(toSpan)
    },
  }
}
