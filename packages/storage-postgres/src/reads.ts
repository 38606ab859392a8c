import type { ReadStore } from '@tis/ingest'
import { createEventQueries } from './event-reads'
import type { SqlExecutor } from './executor'
import { createIssueQueries } from './issue-reads'
import { createMonitorDeploymentQueries } from './monitor-deployment-reads'
import { createPerformanceQueries } from './performance-reads'
import { createTraceQueries } from './trace-reads'

/**
 * The read methods over one executor — issues, events, monitors, deployments, performance and
 * traces — composed from one file per read concept (check-ins and charts: check-in-reads.ts,
 * chart-reads.ts).
 */
export function createReadQueries(
  db: SqlExecutor,
): Omit<ReadStore, 'issueActivity' | 'transactionLatency' | 'listCheckIns'> {
  return {
    ...createIssueQueries(db),
    ...createEventQueries(db),
    ...createMonitorDeploymentQueries(db),
    ...createPerformanceQueries(db),
    ...createTraceQueries(db),
  }
}
