import { EXTREME } from '@tis/test-utils/extreme-rows'
import fc from 'fast-check'
import { clientCheckIn, clientEvent } from './client-events'
import { validCheckIn, validDeployment, validEvent, validMobileToken } from './envelopes'
import {
  type AuthPlan,
  acceptedJsonBody,
  type BodyPlan,
  ingestAuth,
  jsonBody,
  jsonContentType,
  ndjsonBody,
  type RequestPlan,
  userAuth,
} from './requests'
import type { FuzzFixture } from './server'
import type { EndpointName } from './shapes'
import { anyString, DATES, fieldValue, MARK, NUMBERS } from './values'

function plan(
  endpoint: EndpointName,
  method: string,
  path: fc.Arbitrary<(f: FuzzFixture) => string>,
  auth: fc.Arbitrary<AuthPlan>,
  body: fc.Arbitrary<BodyPlan>,
  contentType: fc.Arbitrary<string | undefined> = jsonContentType,
): fc.Arbitrary<RequestPlan> {
  return fc.record({
    endpoint: fc.constant(endpoint),
    method: fc.constant(method),
    path,
    auth,
    contentType,
    body,
    contentLength: fc.boolean(),
  })
}

const fixed = (path: string) => fc.constant(() => path)

/** `encodeURIComponent`, with lone surrogates sent as their (invalid) UTF-8 bytes. */
export function encode(s: string): string {
  return s
    .split(/([\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF])/)
    .map((part, i) => (i % 2 === 1 ? '%ED%A0%80' : encodeURIComponent(part)))
    .join('')
}

/** `POST /api/v1/ingest_events`. */
export const ingestEventPlan = plan(
  'ingestEvent',
  'POST',
  fixed('/api/v1/ingest_events'),
  ingestAuth,
  jsonBody('event', validEvent, true),
)

/**
 * `POST /api/v1/ingest_events` with the bodies of Logister's clients (issue 17): valid under
 * every rule, so each must be accepted.
 */
export const clientEventPlan = plan(
  'ingestEvent',
  'POST',
  fixed('/api/v1/ingest_events'),
  fc.constant({ kind: 'apiKey' as const }),
  acceptedJsonBody('event', clientEvent),
  fc.constant('application/json'),
).map((p) => ({ ...p, mustAccept: true }))

/** `POST /api/v1/check_ins` as logister-js sends it: each must be accepted. */
export const clientCheckInPlan = plan(
  'checkIn',
  'POST',
  fixed('/api/v1/check_ins'),
  fc.constant({ kind: 'apiKeyBearer' as const }),
  acceptedJsonBody('check_in', clientCheckIn),
  fc.constant('application/json'),
).map((p) => ({ ...p, mustAccept: true }))

/** `POST /api/v1/ingest_events/batch`. */
export const batchPlan = plan(
  'batch',
  'POST',
  fixed('/api/v1/ingest_events/batch'),
  ingestAuth,
  ndjsonBody(validEvent),
  fc.oneof(
    {
      weight: 8,
      arbitrary: fc.constantFrom('application/x-ndjson', 'application/ndjson', 'application/jsonl'),
    },
    {
      weight: 2,
      arbitrary: fc.constantFrom<string | undefined>(
        'application/json',
        'application/x-ndjson; charset=utf-8',
        'APPLICATION/X-NDJSON',
        'text/plain',
        'application/x-ndjson, text/plain',
        '',
        undefined,
      ),
    },
  ),
)

/** `POST /api/v1/check_ins`. */
export const checkInPlan = plan(
  'checkIn',
  'POST',
  fixed('/api/v1/check_ins'),
  ingestAuth,
  jsonBody('check_in', validCheckIn, true),
)

/** `POST /api/v1/deployments`. */
export const deploymentPlan = plan(
  'deployment',
  'POST',
  fixed('/api/v1/deployments'),
  ingestAuth,
  jsonBody('deployment', validDeployment, true),
)

/** `POST /api/v1/mobile_ingest_tokens`. */
export const mobileTokenPlan = plan(
  'mobileToken',
  'POST',
  fixed('/api/v1/mobile_ingest_tokens'),
  ingestAuth,
  jsonBody('mobile_ingest_token', validMobileToken, true),
)

/** A path segment: usually the intended id, else another project's, a random UUID or junk. */
function segment(
  intended: (f: FuzzFixture) => string,
  others: ((f: FuzzFixture) => string)[] = [],
) {
  return fc.oneof(
    { weight: 8, arbitrary: fc.constant(intended) },
    ...others.map((o) => ({ weight: 1, arbitrary: fc.constant(o) })),
    { weight: 1, arbitrary: fc.uuid().map((u) => () => u) },
    {
      weight: 2,
      arbitrary: fc
        .oneof(
          anyString.map((s) => encode(s.slice(0, 2000))),
          fc.constantFrom(
            '%',
            '%zz',
            '%00',
            '%2F',
            'a%2Fb',
            '1',
            '-1',
            '9'.repeat(40),
            '%ED%A0%80',
            '%FF',
          ),
        )
        .filter((s) => s !== '' && s !== '.' && s !== '..')
        .map((s) => () => s),
    },
  )
}

const project = (f: FuzzFixture) => f.projectId
const side = (f: FuzzFixture) => f.sideProjectId

/** A management write: `path(segment)` with a JSON body for `envelope`. */
function managementPlan(
  endpoint: EndpointName,
  method: string,
  path: (id: string, f: FuzzFixture) => string,
  id: fc.Arbitrary<(f: FuzzFixture) => string>,
  envelope: string,
  valid: fc.Arbitrary<unknown>,
) {
  return plan(
    endpoint,
    method,
    id.map((seg) => (f: FuzzFixture) => path(seg(f), f)),
    userAuth,
    jsonBody(envelope, valid),
  )
}

const email = fc.oneof(
  fc.emailAddress(),
  fc.constantFrom('fuzz-user@tis.test', 'FUZZ-USER@TIS.TEST', 'admin@tis.test', `${MARK}@x.test`),
)

/** The management API's writes (never on the fuzzed project's limits or status). */
export const managementPlans = {
  createUser: managementPlan(
    'createUser',
    'POST',
    () => '/api/v1/users',
    fc.constant(side),
    'user',
    fc.record({ email: fieldValue(email) }),
  ),
  createProject: managementPlan(
    'createProject',
    'POST',
    () => '/api/v1/projects',
    fc.constant(side),
    'project',
    fc.record(
      {
        name: fieldValue(fc.string({ minLength: 1, maxLength: 20 })),
        integration_kind: fieldValue(
          fc.constantFrom('node', 'android', 'ios', 'python', 'browser'),
        ),
      },
      { requiredKeys: ['name'] },
    ),
  ),
  createApiKey: managementPlan(
    'createApiKey',
    'POST',
    (id) => `/api/v1/projects/${id}/api_keys`,
    segment(side, [project]),
    'api_key',
    fc.record({ name: fieldValue(fc.string({ maxLength: 20 })) }, { requiredKeys: [] }),
  ),
  addMember: managementPlan(
    'addMember',
    'POST',
    (id) => `/api/v1/projects/${id}/members`,
    segment(side),
    'member',
    fc.record({ email: fieldValue(email) }),
  ),
  setRateLimits: managementPlan(
    'setRateLimits',
    'PUT',
    (id) => `/api/v1/projects/${id}/rate_limits`,
    segment(side),
    'rate_limit',
    fc.record(
      {
        requests: fieldValue(
          fc.oneof(fc.integer({ min: 1, max: 10_000 }), fc.constantFrom(...NUMBERS)),
        ),
        period_seconds: fieldValue(
          fc.oneof(fc.integer({ min: 1, max: 3600 }), fc.constantFrom(...NUMBERS)),
        ),
        auth_failure_requests: fieldValue(
          fc.oneof(fc.integer({ min: 1, max: 1000 }), fc.constant(null)),
        ),
      },
      { requiredKeys: [] },
    ),
  ),
  setSourceSettings: managementPlan(
    'setSourceSettings',
    'PUT',
    (id) => `/api/v1/projects/${id}/source_settings`,
    segment(side),
    'source_settings',
    fc.record(
      {
        github_token: fieldValue(fc.constantFrom('github_pat_fuzz', 'a b', null)),
        path_prefix: fieldValue(fc.string({ maxLength: 20 })),
        context_lines: fieldValue(
          fc.oneof(fc.integer({ min: 0, max: 50 }), fc.constantFrom(...NUMBERS)),
        ),
        github_api_url: fieldValue(
          fc.constantFrom('https://ghe.test/api/v3', 'javascript:x', null),
        ),
      },
      { requiredKeys: [] },
    ),
  ),
  createAlertChannel: managementPlan(
    'createAlertChannel',
    'POST',
    (id) => `/api/v1/projects/${id}/alert_channels`,
    segment(side, [project]),
    'alert_channel',
    fc.record(
      {
        name: fieldValue(fc.string({ maxLength: 20 })),
        type: fieldValue(fc.constantFrom('webhook', 'slack', 'email', 'sms')),
        // IP literals only: no DNS lookups while fuzzing.
        url: fieldValue(
          fc.constantFrom(
            'https://203.0.113.10/hook',
            'http://127.0.0.1/',
            'http://[::ffff:7f00:1]/',
            'javascript:x',
            'https://u:p@203.0.113.9/',
            null,
          ),
        ),
        to: fieldValue(fc.oneof(email, fc.array(email, { maxLength: 3 }))),
      },
      { requiredKeys: ['name', 'type'] },
    ),
  ),
  createAlertRule: managementPlan(
    'createAlertRule',
    'POST',
    (id) => `/api/v1/projects/${id}/alert_rules`,
    segment(side, [project]),
    'alert_rule',
    fc.record(
      {
        name: fieldValue(fc.string({ maxLength: 20 })),
        trigger: fieldValue(fc.constantFrom('new_issue', 'spike', 'monitor_missed', 'x')),
        channel_ids: fieldValue(fc.array(fc.uuid(), { maxLength: 3 })),
        level: fieldValue(fc.constantFrom('error', 'loud', null)),
        threshold: fieldValue(
          fc.oneof(fc.integer({ min: 0, max: 10 }), fc.constantFrom(...NUMBERS)),
        ),
        window_seconds: fieldValue(
          fc.oneof(fc.integer({ min: 0, max: 100_000 }), fc.constantFrom(...NUMBERS)),
        ),
        quiet_seconds: fieldValue(
          fc.oneof(fc.integer({ min: -1, max: 10 }), fc.constantFrom(...NUMBERS)),
        ),
      },
      { requiredKeys: ['name', 'trigger'] },
    ),
  ),
  updateIssue: plan(
    'updateIssue',
    'PATCH',
    fc
      .tuple(
        segment(project, [side]),
        segment((f) => f.issueId),
      )
      .map(
        ([p, i]) =>
          (f: FuzzFixture) =>
            `/api/v1/projects/${p(f)}/issues/${i(f)}`,
      ),
    userAuth,
    jsonBody(
      'issue',
      fc.record({
        status: fieldValue(fc.constantFrom('resolved', 'ignored', 'unresolved', 'all')),
      }),
    ),
  ),
} as const

const QUERY_KEYS = [
  'query',
  'sort',
  'status',
  'environment',
  'release',
  'q',
  'limit',
  'cursor',
  'since',
  'until',
  'event_type',
  'level',
  'trace_id',
  'request_id',
  'session_id',
  'user_id',
  'issue_id',
  'repository',
  'kind',
  'name',
  'interval',
  'sparkline',
  'slug',
] as const

/** A term of the search syntax (docs/issues.md): known and unknown keys, edge values, junk. */
const searchTerm = fc
  .tuple(
    fc.constantFrom('', '!'),
    fc.constantFrom(
      ...['is', 'level', 'release', 'environment', 'user.id', 'times_seen', 'first_seen'],
      ...['last_seen', 'timestamp', 'users', 'assigned', 'timesSeen', 'Level', 'x.y'],
    ),
    fc.oneof(
      fc.constantFrom(
        ...['>10', '<=0', '>999999999999999', '-24h', '+7d', '-999999w', '>2026-11-01'],
        ...['2026-02-30', '9999-12-31', '0001-01-01', '<=9999-12-31T23:59:59Z', '[a,b]'],
        ...['["q u",x]', '[', '"unclosed', 'unresolved', 'resolved', 'me', 'none', 'a@b.c'],
      ),
      anyString.map((v) => v.slice(0, 20)),
    ),
  )
  .map(([not, key, value]) => `${not}${key}:${value}`)

/** A `query=` value: terms and free text, percent-encoded. */
const searchQuery = fc
  .array(
    fc.oneof(
      searchTerm,
      anyString.map((t) => t.slice(0, 30)),
    ),
    { maxLength: 5 },
  )
  .map((terms) => encode(terms.join(' ')))

const queryValue = fc.oneof(
  searchQuery,
  anyString.map((s) => encode(s.slice(0, 3000))),
  fc.constantFrom(...DATES).map(encodeURIComponent),
  fc.constantFrom(...NUMBERS).map(String),
  fc.constantFrom(
    'all',
    'resolved',
    'error',
    'in_progress',
    'span',
    'server',
    '5m',
    '1h',
    '0s',
    '7d',
    '1000000d',
    '-1',
    '1.5',
    '1e3',
    '0x10',
    '24h',
    'times_seen',
    'first_seen',
    'users',
    '',
  ),
  fc
    .base64String({ maxLength: 60 })
    .map((s) => s.replaceAll('+', '-').replaceAll('/', '_').replaceAll('=', '')),
  fc.constantFrom('%', '%zz', '%E0%A4%A', '%00', '+', '%2B', '%FF', '%C3%28', '%ED%A0%80'),
  // The names of the seeded extreme rows (fuzz/seed.ts), so `name` reaches them.
  fc.constantFrom(EXTREME.metric, EXTREME.transaction).map(encodeURIComponent),
)

/** A query string: known and unknown keys, repeats, junk encodings. */
export const queryString = fc
  .array(
    fc.tuple(
      fc.oneof(
        { weight: 5, arbitrary: fc.constantFrom(...QUERY_KEYS) },
        { weight: 1, arbitrary: fc.string({ maxLength: 8 }).map(encode) },
      ),
      queryValue,
    ),
    { maxLength: 6 },
  )
  .chain((pairs) =>
    fc
      .constantFrom('&', '&&', ';')
      .map((sep) => (pairs.length === 0 ? '' : `?${pairs.map(([k, v]) => `${k}=${v}`).join(sep)}`)),
  )

/** A read API GET: `sub` under the project, a fuzzed query string, no body. */
function readPlan(endpoint: EndpointName, sub: fc.Arbitrary<(f: FuzzFixture) => string>) {
  return plan(
    endpoint,
    'GET',
    fc.tuple(segment(project, [side]), sub, queryString).map(
      ([p, s, q]) =>
        (f: FuzzFixture) =>
          `/api/v1/projects/${p(f)}${s(f)}${q}`,
    ),
    userAuth,
    fc.constant({ kind: 'none' as const }),
    fc.constantFrom<string | undefined>(undefined, 'application/json'),
  )
}

const under = (path: string) => fixed(path)
const withId = (prefix: string, id: (f: FuzzFixture) => string) =>
  segment(id).map((s) => (f: FuzzFixture) => `${prefix}/${s(f)}`)

/** Every read API GET. */
export const readPlans = {
  listIssues: readPlan('listIssues', under('/issues')),
  getIssue: readPlan(
    'getIssue',
    withId('/issues', (f) => f.issueId),
  ),
  listEvents: readPlan('listEvents', under('/events')),
  getEvent: readPlan(
    'getEvent',
    withId('/events', (f) => f.eventId),
  ),
  listMonitors: readPlan('listMonitors', under('/monitors')),
  getMonitor: readPlan(
    'getMonitor',
    withId('/monitors', (f) => f.monitorId),
  ),
  listCheckIns: readPlan(
    'listCheckIns',
    withId('/monitors', (f) => f.monitorId).map((m) => (f: FuzzFixture) => `${m(f)}/check_ins`),
  ),
  listDeployments: readPlan('listDeployments', under('/deployments')),
  listTransactions: readPlan('listTransactions', under('/transactions')),
  getMetric: readPlan('getMetric', under('/metrics')),
  getTransactionLatency: readPlan('getTransactionLatency', under('/transactions/latency')),
  listTraces: readPlan('listTraces', under('/traces')),
  getTrace: readPlan(
    'getTrace',
    withId('/traces', (f) => f.traceId),
  ),
} as const
