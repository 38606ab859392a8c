import type { ReadStore } from '@tis/ingest'
import type { SqlExecutor } from './executor'
import { conditions } from './read-conditions'
import { DEPLOYMENT_COLUMNS, MONITOR_COLUMNS, toDeployment, toMonitor } from './read-rows'
import { isUuid } from './uuid'

/** The monitor list, one monitor, and the deployment list. */
export function createMonitorDeploymentQueries(
  db: SqlExecutor,
): Pick<ReadStore, 'listMonitors' | 'findMonitor' | 'listDeployments'> {
  return {
    async listMonitors(query) {
      const c = conditions(query.projectId)
      c.equals('m.environment', query.environment)
      c.equals('m.slug', query.slug)
      c.after('m.last_check_in_at', 'm.id', query.after)
      const rows = await db.query(
        `select ${MONITOR_COLUMNS} from monitors m where m.project_id = $1::uuid${c.sql()}
         order by m.last_check_in_at desc, m.id desc limit ${c.param(query.limit, 'int')}`,
        c.params,
      )
      return rows.map(toMonitor)
    },

    async findMonitor(projectId, monitorId) {
      if (!isUuid(monitorId)) return null
      const rows = await db.query(
        `select ${MONITOR_COLUMNS} from monitors m where m.project_id = $1::uuid and m.id = $2::uuid`,
        [projectId, monitorId],
      )
      return rows[0] ? toMonitor(rows[0]) : null
    },

    async listDeployments(query) {
      const c = conditions(query.projectId)
      c.equals('d.environment', query.environment)
      c.equals('d.release', query.release)
      c.equals('d.repository', query.repository)
      if (query.deployedBefore) {
        c.where.push(`d.deployed_at <= ${c.param(query.deployedBefore, 'timestamptz')}`)
      }
      c.after('d.deployed_at', 'd.id', query.after)
      const rows = await db.query(
        `select ${DEPLOYMENT_COLUMNS} from deployments d where d.project_id = $1::uuid${c.sql()}
         order by d.deployed_at desc, d.id desc limit ${c.param(query.limit, 'int')}`,
        c.params,
      )
      return rows.map(toDeployment)
    },
  }
}
