import { describeFuzz } from './fuzz/describe-fuzz'
import { readPlans } from './fuzz/plans'
import { seedExtremeRows } from './fuzz/seed'

// The read API (see fuzz.e2e.test.ts and docs/testing.md), over a project whose database was
// seeded with extreme values past validation, as an old database may hold them (issue 18).
describeFuzz(
  'fuzzing the read endpoints over extreme stored values',
  [
    ['GET /api/v1/projects/:id/issues', readPlans.listIssues],
    ['GET /api/v1/projects/:id/issues/:issue_id', readPlans.getIssue],
    ['GET /api/v1/projects/:id/events', readPlans.listEvents],
    ['GET /api/v1/projects/:id/events/:event_id', readPlans.getEvent],
    ['GET /api/v1/projects/:id/monitors', readPlans.listMonitors],
    ['GET /api/v1/projects/:id/monitors/:monitor_id', readPlans.getMonitor],
    ['GET /api/v1/projects/:id/monitors/:monitor_id/check_ins', readPlans.listCheckIns],
    ['GET /api/v1/projects/:id/deployments', readPlans.listDeployments],
    ['GET /api/v1/projects/:id/transactions', readPlans.listTransactions],
    ['GET /api/v1/projects/:id/metrics', readPlans.getMetric],
    ['GET /api/v1/projects/:id/transactions/latency', readPlans.getTransactionLatency],
    ['GET /api/v1/projects/:id/traces', readPlans.listTraces],
    ['GET /api/v1/projects/:id/traces/:trace_id', readPlans.getTrace],
  ],
  { seed: seedExtremeRows },
)
