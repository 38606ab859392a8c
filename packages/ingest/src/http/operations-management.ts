import type { HttpMethod, HttpOperation } from './operation-types'

type Row = readonly [HttpMethod, string, string]

/**
 * One management-style operation: the path and query parameters and the raw body text go to
 * the engine, which parses it and answers malformed JSON itself. Its `operationId` is the
 * function's name.
 */
function operation(api: HttpOperation['api'], prefix: string, [method, path, call]: Row) {
  return {
    method,
    path: `${prefix}${path}`,
    id: call,
    api,
    call,
    body: 'text',
    cap: 'body',
    params: true,
  } satisfies HttpOperation
}

const MANAGEMENT: readonly Row[] = [
  ['POST', '/users', 'createUser'],
  ['POST', '/projects', 'createProject'],
  ['GET', '/projects', 'listProjects'],
  ['GET', '/projects/:id', 'getProject'],
  ['GET', '/projects/:id/api_keys', 'listApiKeys'],
  ['POST', '/projects/:id/api_keys', 'createApiKey'],
  ['DELETE', '/projects/:id/api_keys/:key_id', 'revokeApiKey'],
  ['POST', '/projects/:id/archive', 'archiveProject'],
  ['POST', '/projects/:id/restore', 'restoreProject'],
  ['POST', '/projects/:id/members', 'addMember'],
  ['GET', '/projects/:id/members', 'listMembers'],
  ['GET', '/projects/:id/mobile_tokens', 'listMobileTokens'],
  ['DELETE', '/projects/:id/mobile_tokens/:token_id', 'revokeMobileToken'],
  ['GET', '/projects/:id/rate_limits', 'getRateLimits'],
  ['GET', '/projects/:id/retention', 'getRetention'],
  ['PUT', '/projects/:id/retention', 'setRetention'],
  ['PUT', '/projects/:id/rate_limits', 'setRateLimits'],
  ['GET', '/projects/:id/data_scrubbing', 'getDataScrubbing'],
  ['PUT', '/projects/:id/data_scrubbing', 'setDataScrubbing'],
]

// The signed-in user's own account: dashboard sessions and access-token rotation.
const ACCOUNT: readonly Row[] = [
  ['GET', '/sessions', 'listSessions'],
  ['DELETE', '/sessions', 'endSessions'],
  ['POST', '/token', 'rotateToken'],
]

const READS: readonly Row[] = [
  ['GET', '/issues', 'listIssues'],
  ['PATCH', '/issues', 'updateIssues'],
  ['POST', '/issues/merge', 'mergeIssues'],
  ['GET', '/issues/:issue_id', 'getIssue'],
  ['PATCH', '/issues/:issue_id', 'updateIssue'],
  ['GET', '/issues/:issue_id/comments', 'listIssueComments'],
  ['POST', '/issues/:issue_id/comments', 'createIssueComment'],
  ['DELETE', '/issues/:issue_id/comments/:comment_id', 'deleteIssueComment'],
  ['GET', '/issues/:issue_id/activity', 'listIssueActivity'],
  ['GET', '/events', 'listEvents'],
  ['GET', '/events/:event_id', 'getEvent'],
  ['GET', '/monitors', 'listMonitors'],
  ['GET', '/monitors/:monitor_id', 'getMonitor'],
  ['GET', '/monitors/:monitor_id/check_ins', 'listCheckIns'],
  ['GET', '/deployments', 'listDeployments'],
  ['GET', '/transactions', 'listTransactions'],
  ['GET', '/transactions/latency', 'getTransactionLatency'],
  ['GET', '/metrics', 'getMetric'],
  ['GET', '/traces', 'listTraces'],
  ['GET', '/traces/:trace_id', 'getTrace'],
  ['GET', '/releases', 'listReleases'],
  ['GET', '/releases/:version', 'getRelease'],
]

const SOURCE_SETTINGS: readonly Row[] = [
  ['GET', '/source_settings', 'getSourceSettings'],
  ['PUT', '/source_settings', 'setSourceSettings'],
]

const ALERTS: readonly Row[] = [
  ['GET', '/alert_channels', 'listAlertChannels'],
  ['POST', '/alert_channels', 'createAlertChannel'],
  ['DELETE', '/alert_channels/:channel_id', 'deleteAlertChannel'],
  ['POST', '/alert_channels/:channel_id/test', 'testAlertChannel'],
  ['GET', '/alert_rules', 'listAlertRules'],
  ['POST', '/alert_rules', 'createAlertRule'],
  ['DELETE', '/alert_rules/:rule_id', 'deleteAlertRule'],
  ['GET', '/alert_deliveries', 'listAlertDeliveries'],
]

/**
 * The management API (users, projects, keys, members, mobile tokens, limits, retention), the
 * account, the reads, source settings and alerts: all authenticated by an access token.
 */
export function managementOperations(): HttpOperation[] {
  const project = '/api/v1/projects/:id'
  return [
    ...MANAGEMENT.map((row) => operation('management', '/api/v1', row)),
    ...ACCOUNT.map((row) => operation('account', '/api/v1/users/me', row)),
    ...READS.map((row) => operation('reads', project, row)),
    ...SOURCE_SETTINGS.map((row) => operation('sourceSettings', project, row)),
    ...ALERTS.map((row) => operation('alerts', project, row)),
  ]
}
