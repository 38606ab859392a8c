import type {
  CheckInRecord,
  DeploymentRecord,
  EventRecord,
  IssueCommentRecord,
  IssueRecord,
  MonitorRecord,
  ReleaseHealthRecord,
  SpanRecord,
} from '../src/ports'
import type { ReadApiOptions } from '../src/reads/api'

// Stored records of every kind the read API answers with, and a read store over them: the
// answer-schema test serialises them through the real read operations. Test support only.

/** A UUID (version 4) whose last digits are `n`. */
export const uuidOf = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`
const at = (iso: string) => new Date(iso)

/** An issue grouped by fingerprint, reopened once. */
export const ISSUE: IssueRecord = {
  id: uuidOf(1),
  projectId: uuidOf(100),
  groupingKey: 'fingerprint:abc',
  title: 'boom',
  level: 'error',
  status: 'unresolved',
  count: 3,
  users: 2,
  firstSeenAt: at('2026-06-01T10:00:00.000Z'),
  // An instant an old database may hold that JavaScript cannot represent: answered as null.
  lastSeenAt: new Date(Number.NaN),
  firstRelease: '1.0.0',
  lastRelease: null,
  latestEventId: uuidOf(2),
  regressionCount: 1,
  regressedInRelease: '1.0.1',
  assignee: { id: uuidOf(300), email: 'dev@example.com' },
}

const EVENT_BASE = {
  legacyId: 7,
  level: 'error',
  fingerprint: null,
  issueId: uuidOf(1),
  environment: 'production',
  release: '1.0.0',
  traceId: 'trace-1',
  requestId: null,
  sessionId: null,
} as const

/** An error event of {@link ISSUE}, in trace `trace-1`. */
export const EVENT: EventRecord = {
  ...EVENT_BASE,
  id: uuidOf(2),
  eventType: 'error',
  message: 'boom',
  occurredAt: at('2026-06-01T12:01:00.000Z'),
  payload: { message: 'boom', context: { user: { id: 'u1' } } },
}

/**
 * A log event of the same trace, without a context, whose client chose an id that is no RFC 9562
 * UUID (version 1 digit, variant 1): `event_id` accepts any 8-4-4-4-12 hexadecimal id.
 */
export const RELATED_EVENT: EventRecord = {
  ...EVENT_BASE,
  id: '12345678-1234-1234-1234-123456789012',
  eventType: 'log',
  message: 'hello',
  issueId: null,
  occurredAt: at('2026-06-01T12:02:00.000Z'),
  payload: { message: 'hello' },
}

/** A monitor whose health is not known yet. */
export const MONITOR: MonitorRecord = {
  id: uuidOf(4),
  slug: 'nightly',
  environment: 'production',
  health: null,
  lastStatus: 'in_progress',
  lastCheckInAt: at('2026-06-01T12:00:00.000Z'),
  expectedIntervalSeconds: 3600,
  lastRelease: null,
  checkInCount: 2,
}

/** A compact check-in with a context and a field its shape does not define. */
export const CHECK_IN: CheckInRecord = {
  id: uuidOf(5),
  status: 'ok',
  occurredAt: at('2026-06-01T12:00:00.000Z'),
  receivedAt: at('2026-06-01T12:00:01.000Z'),
  durationMs: 1200,
  environment: 'production',
  release: null,
  traceId: null,
  requestId: null,
  source: 'check_in',
  eventId: null,
  payload: { slug: 'nightly', status: 'ok', context: { host: 'a' }, shard: 3 },
}

/** A deployment with one link of another scheme (answered as null). */
export const DEPLOYMENT: DeploymentRecord = {
  id: uuidOf(6),
  repository: 'acme/app',
  environment: 'production',
  release: '1.0.0',
  commitSha: 'abcdef1',
  branch: 'main',
  deployedAt: at('2026-06-01T11:00:00.000Z'),
  pullRequestNumber: '12',
  pullRequestUrl: 'https://github.com/acme/app/pull/12',
  releaseUrl: 'javascript:alert(1)',
  compareUrl: null,
  workflowRunUrl: null,
  deploymentUrl: null,
  releaseTag: null,
  source: 'api',
}

const SPAN_BASE = {
  traceId: 'trace-1',
  kind: 'server',
  environment: 'production',
  release: '1.0.0',
  level: null,
  payload: { context: { route: '/' } },
} as const

/** The root span of `trace-1` and its child. */
export const SPANS: readonly SpanRecord[] = [
  {
    ...SPAN_BASE,
    id: uuidOf(8),
    spanId: 'root',
    parentSpanId: null,
    name: 'GET /',
    startedAt: at('2026-06-01T12:00:00.000Z'),
    endedAt: at('2026-06-01T12:00:00.250Z'),
    durationMs: 250,
    status: 200,
  },
  {
    ...SPAN_BASE,
    id: uuidOf(9),
    spanId: 'child',
    parentSpanId: 'root',
    name: 'db',
    startedAt: at('2026-06-01T12:00:00.010Z'),
    endedAt: null,
    durationMs: null,
    status: 'ok',
  },
]

const BUCKET_START = at('2026-06-01T12:05:00.000Z')
const TIMINGS = { p50: 10, p95: 19, p99: 19.8, avg: 10 }

/** A read store over the records above. */
export const RELEASE: ReleaseHealthRecord = {
  version: 'web@1.2.0',
  firstSeenAt: at('2026-05-30T08:00:00.000Z'),
  lastSeenAt: at('2026-06-01T12:10:00.000Z'),
  sessions: { healthy: 90, errored: 6, abnormal: 1, crashed: 3 },
  users: { total: 40, crashed: 2 },
  adoption: { sessions: 50, ofAll: 200 },
}

const COMMENT = (id: string, body: string): IssueCommentRecord => ({
  id,
  issueId: uuidOf(1),
  author: { id: uuidOf(300), email: 'dev@example.com' },
  body,
  createdAt: at('2026-06-01T12:01:00.000Z'),
})

export const FIXTURE_STORE: ReadApiOptions['store'] = {
  findUserByEmail: async (email) => ({
    id: uuidOf(300),
    email,
    createdAt: at('2026-05-01T00:00:00Z'),
  }),
  isMember: async () => true,
  listReleases: async () => [RELEASE],
  findRelease: async () => RELEASE,
  releaseSeries: async () => [{ at: BUCKET_START, sessions: 10, errored: 1, crashed: 1 }],
  releaseIssues: async () => [ISSUE],
  releaseDeployments: async () => [DEPLOYMENT],
  listIssues: async () => [ISSUE],
  findIssue: async () => ISSUE,
  setIssueStatus: async (_p, _i, status) => ({ ...ISSUE, status }),
  changeIssues: async (_p, ids, change) => ({
    issues: ids.map(() => ({ ...ISSUE, ...(change.status ? { status: change.status } : {}) })),
    changed: ids.length,
  }),
  mergeIssues: async (_p, ids) => ({ ok: true, issue: ISSUE, merged: ids.slice(1) }),
  findMergedIssue: async () => null,
  addIssueComment: async (c) => COMMENT(c.id, c.body),
  listIssueComments: async () => [COMMENT(uuidOf(400), 'Looks like **the cache**')],
  findIssueComment: async () => COMMENT(uuidOf(400), 'x'),
  deleteIssueComment: async () => true,
  listIssueHistory: async () => [
    {
      id: uuidOf(401),
      kind: 'assignee',
      actor: 'dev@example.com',
      data: { from: null, to: 'dev@example.com' },
      createdAt: at('2026-06-01T12:00:00.000Z'),
    },
  ],
  listEvents: async () => [EVENT, RELATED_EVENT],
  listMonitors: async () => [MONITOR],
  findMonitor: async () => MONITOR,
  listCheckIns: async () => [CHECK_IN],
  listDeployments: async () => [DEPLOYMENT],
  findEvent: async () => EVENT,
  listRelatedEvents: async () => [RELATED_EVENT],
  summarizeTransactions: async () => [
    { name: 'GET /', count: 4, errorCount: 1, ...TIMINGS },
    { name: 'idle', count: 0, errorCount: 0, p50: null, p95: null, p99: null, avg: null },
  ],
  metricBuckets: async () => [{ start: BUCKET_START, count: 2, sum: 3, min: 1, max: 2, avg: 1.5 }],
  listTraceSpans: async () => SPANS,
  listRootSpans: async () => [SPANS[0]!],
  issueActivity: async (q) => [{ issueId: q.issueIds[0]!, start: q.since, count: 2 }],
  transactionLatency: async () => [{ start: BUCKET_START, count: 2, errorCount: 1, ...TIMINGS }],
}
