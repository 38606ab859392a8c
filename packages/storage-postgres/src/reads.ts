import type { ReadStore } from '@tis/ingest'
import { createEventQueries } from './event-reads'
import type { SqlExecutor } from './executor'
import { createIssueMergeQueries } from './issue-merge'
import { createIssueQueries } from './issue-reads'
import { createIssueTriageQueries } from './issue-triage'
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
  const triage = createIssueTriageQueries(db)
  return {
    ...triage,
    ...createIssueMergeQueries(db),
    ...createIssueQueries(db, triage),
    ...createEventQueries(db),
    ...createMonitorDeploymentQueries(db),
    ...createPerformanceQueries(db),
    ...createTraceQueries(db),
  }
}
