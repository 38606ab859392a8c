import { describeFuzz } from './fuzz/describe-fuzz'
import { managementPlans } from './fuzz/plans'

// The management endpoints (see fuzz.e2e.test.ts and docs/testing.md).
describeFuzz('fuzzing the management endpoints', [
  ['POST /api/v1/users', managementPlans.createUser],
  ['POST /api/v1/projects', managementPlans.createProject],
  ['POST /api/v1/projects/:id/api_keys', managementPlans.createApiKey],
  ['POST /api/v1/projects/:id/members', managementPlans.addMember],
  ['PUT /api/v1/projects/:id/rate_limits', managementPlans.setRateLimits],
  ['PUT /api/v1/projects/:id/source_settings', managementPlans.setSourceSettings],
  ['PATCH /api/v1/projects/:id/issues/:issue_id', managementPlans.updateIssue],
  ['POST /api/v1/projects/:id/alert_channels', managementPlans.createAlertChannel],
  ['POST /api/v1/projects/:id/alert_rules', managementPlans.createAlertRule],
])
