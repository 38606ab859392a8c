import { MAX_METRIC_BUCKETS, MAX_TRACE_SPANS, TRACE_EVENTS_LIMIT } from '@tis/ingest'
import { EVENT_TYPES, type OpenApiExtension, type OpenApiObject } from '@tis/schema'

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })
const json = (schema: OpenApiObject) => ({ 'application/json': { schema } })
const dateTime = { type: 'string', format: 'date-time' }
/** A stored instant: `null` only for one an old database holds without an RFC 3339 form. */
const storedTime = {
  type: ['string', 'null'],
  format: 'date-time',
  description:
    'null only for an instant stored before issue 18 that has no RFC 3339 form (a BC date, ±infinity).',
}
/** A stored link: an http(s) URL, else null (also for a stored link of another scheme). */
const link = {
  type: ['string', 'null'],
  format: 'uri',
  description:
    'An http or https URL; null when absent or when the stored value has another scheme.',
}
const uuid = { type: 'string', format: 'uuid' }
const nullableString = { type: ['string', 'null'] }
const nullableNumber = { type: ['number', 'null'] }
const USER_AUTH = [{ userToken: [] }]
const STATUSES = ['unresolved', 'resolved', 'ignored']

const path = (name: string) => ({ name, in: 'path', required: true, schema: uuid })
const query = (name: string, description: string, schema: OpenApiObject = { type: 'string' }) => ({
  name,
  in: 'query',
  required: false,
  description,
  schema,
})
const PAGE = [
  query('limit', 'Page size, 1 or more; capped at 200.', {
    type: 'integer',
    minimum: 1,
    default: 50,
  }),
  query('cursor', 'The `next_cursor` of the previous page (opaque).'),
]
const WINDOW = [
  query('since', 'occurred_at at or after (RFC 3339); default 24 hours before `until`.', dateTime),
  query('until', 'occurred_at before (RFC 3339); default now.', dateTime),
]
const errorResponse = (description: string, body: OpenApiObject) => ({
  description,
  content: json(body),
})
const errors = (...statuses: number[]) => {
  const all: Record<string, OpenApiObject> = {
    '400': errorResponse(
      'The body is missing, not valid JSON or not a JSON object, or its `issue` envelope is missing, null or empty.',
      ref('Error'),
    ),
    '401': errorResponse('The access token is missing or unknown.', ref('Error')),
    '404': errorResponse('No such project or issue, or the user may not see it.', ref('Error')),
    '422': errorResponse(
      'A query parameter or the body failed validation; each message names its parameter.',
      ref('ValidationErrors'),
    ),
  }
  return Object.fromEntries(statuses.map((s) => [String(s), all[String(s)]]))
}
const operation = (id: string, summary: string, rest: OpenApiObject) => ({
  operationId: id,
  tags: ['reads'],
  summary,
  security: USER_AUTH,
  ...rest,
})

/** `interval`, `environment` and `release`: the bucketed reads' parameters after the window. */
const BUCKETED = [
  query(
    'interval',
    'Bucket width: seconds (`300`) or with a unit (`30s`, `5m`, `1h`, `1d`), up to 365 days. Default: the first of 60, 300, 900, 3600, 21600, 86400, 604800 s giving at most 120 buckets.',
    { type: 'string', pattern: '^\\d{1,9}[smhd]?$' },
  ),
  query('environment', 'Exact environment.'),
  query('release', 'Exact release.'),
]

const SCHEMAS: OpenApiExtension['schemas'] = {
  Issue: {
    type: 'object',
    description: 'Errors grouped by fingerprint, else by the first line of the message.',
    required: ['id', 'title', 'level', 'status', 'count', 'first_seen_at', 'last_seen_at'],
    properties: {
      id: uuid,
      fingerprint: { ...nullableString, description: 'null when grouped by message' },
      title: { type: 'string' },
      level: { type: 'string' },
      status: { type: 'string', enum: STATUSES },
      count: { type: 'integer' },
      first_seen_at: storedTime,
      last_seen_at: storedTime,
      first_release: nullableString,
      last_release: nullableString,
      latest_event_id: { type: ['string', 'null'], format: 'uuid' },
      regression_count: {
        type: 'integer',
        description: 'How often a new occurrence reopened the issue after it was resolved.',
      },
      regressed_in_release: {
        ...nullableString,
        description: 'The release of the occurrence that last reopened it.',
      },
      sparkline: {
        type: 'array',
        items: { type: 'integer', minimum: 0 },
        minItems: 24,
        maxItems: 24,
        description:
          'Only with `sparkline=24h`: the events of the issue in each of the last 24 whole UTC hours, oldest first; the last is the current hour so far.',
      },
    },
  },
  IssueUpdate: {
    type: 'object',
    required: ['issue'],
    properties: {
      issue: {
        type: 'object',
        required: ['status'],
        properties: { status: { type: 'string', enum: STATUSES } },
      },
    },
  },
  StoredEvent: {
    type: 'object',
    required: ['id', 'legacy_id', 'event_type', 'occurred_at', 'context'],
    properties: {
      id: uuid,
      legacy_id: { type: 'integer' },
      event_type: { type: 'string', enum: [...EVENT_TYPES] },
      level: nullableString,
      message: nullableString,
      fingerprint: nullableString,
      occurred_at: storedTime,
      context: { type: 'object' },
      issue_id: { type: ['string', 'null'], format: 'uuid' },
      environment: nullableString,
      release: nullableString,
      trace_id: nullableString,
      request_id: nullableString,
      session_id: nullableString,
    },
  },
  Monitor: {
    type: 'object',
    description:
      'One (slug, environment) with its status computed when read: `error` while the last ok/error check-in was an error (also past the deadline), else `missed` after `missed_after` = `next_expected_at` + max(interval / 2, 30 s), else `ok`.',
    required: [
      'id',
      'slug',
      'environment',
      'status',
      'last_status',
      'last_check_in_at',
      'expected_interval_seconds',
      'next_expected_at',
      'missed_after',
    ],
    properties: {
      id: uuid,
      slug: { type: 'string' },
      environment: { type: 'string' },
      status: { type: 'string', enum: ['ok', 'error', 'missed'] },
      health: {
        type: ['string', 'null'],
        enum: ['ok', 'error', null],
        description: 'The last ok/error check-in; null until the first of them.',
      },
      last_status: { type: 'string', description: 'The status of the newest check-in as sent.' },
      last_check_in_at: storedTime,
      expected_interval_seconds: { type: 'integer' },
      next_expected_at: storedTime,
      missed_after: storedTime,
      last_release: nullableString,
      check_in_count: { type: 'integer' },
    },
  },
  StoredCheckIn: {
    type: 'object',
    description:
      'One check-in of a monitor, from `POST /api/v1/check_ins` (`source` `check_in`) or an event of type `check_in` (`source` `event`), with the fields stored for it.',
    required: [
      'id',
      'occurred_at',
      'received_at',
      'status',
      'duration_ms',
      'environment',
      'release',
      'trace_id',
      'request_id',
      'source',
      'event_id',
      'message',
      'context',
      'extra',
    ],
    properties: {
      id: {
        ...uuid,
        description: "The accepted check-in's id; for an event, the id of its history entry.",
      },
      occurred_at: dateTime,
      received_at: dateTime,
      status: { type: 'string', description: 'As sent: `ok`, `error`, `in_progress`, …' },
      duration_ms: nullableNumber,
      environment: { type: 'string' },
      release: nullableString,
      trace_id: nullableString,
      request_id: nullableString,
      source: { type: 'string', enum: ['check_in', 'event'] },
      event_id: {
        type: ['string', 'null'],
        format: 'uuid',
        description: 'The event it came from; null for `source` `check_in`.',
      },
      message: { ...nullableString, description: "The event's message; null for `check_in`." },
      context: { type: 'object', description: 'The `context` object sent with it; `{}` if none.' },
      extra: {
        type: 'object',
        description:
          'Other top-level fields sent that the check-in (section 2.3) or event (section 2.1) shape does not define, as sent.',
      },
    },
  },
  Deployment: {
    type: 'object',
    required: ['id', 'repository', 'environment', 'release', 'commit_sha', 'deployed_at'],
    properties: {
      id: uuid,
      repository: { type: 'string' },
      environment: { type: 'string' },
      release: { type: 'string' },
      commit_sha: { type: 'string' },
      branch: nullableString,
      release_tag: nullableString,
      deployed_at: storedTime,
      pull_request_number: nullableString,
      pull_request_url: link,
      release_url: link,
      compare_url: link,
      workflow_run_url: link,
      deployment_url: link,
      source: {
        type: 'string',
        enum: ['api', 'event'],
        description: '`event` when only known from an event.',
      },
    },
  },
  EventDetail: {
    type: 'object',
    required: ['event', 'issue', 'deployment', 'related', 'source_commit', 'frames'],
    properties: {
      event: ref('StoredEvent'),
      issue: { oneOf: [ref('Issue'), { type: 'null' }] },
      deployment: {
        description:
          "The deployment of the event's release and environment (and repository when it names one), else the newest deployed at or before it there; null when none.",
        oneOf: [ref('Deployment'), { type: 'null' }],
      },
      related: {
        type: 'array',
        maxItems: 20,
        description:
          'Up to 20 other events sharing its trace_id, request_id or session_id, newest first.',
        items: ref('StoredEvent'),
      },
      source_commit: ref('SourceCommit'),
      frames: {
        type: 'array',
        maxItems: 50,
        description:
          'The stack frames of `context.exception` with source excerpts at the commit that ran, resolved when read (docs/source-excerpts.md); `[]` without frames.',
        items: ref('Frame'),
      },
    },
  },
  Transaction: {
    type: 'object',
    description:
      'The transactions of one name (`transaction_name`, else `message`) in the window. An error is a transaction whose HTTP status code is 500 or more, or whose level is `error` or `fatal`; the status code is the first of `context.status_code`, `context.http_status`, `context.http.status_code`, `context.status`, `context.response.status_code`, `context.response.status` that is an integer (or three-digit string) from 100 to 599.',
    required: [
      'name',
      'count',
      'error_count',
      'error_rate',
      'p50_ms',
      'p95_ms',
      'p99_ms',
      'avg_ms',
    ],
    properties: {
      name: { type: 'string' },
      count: { type: 'integer' },
      error_count: { type: 'integer' },
      error_rate: { type: 'number', minimum: 0, maximum: 1, description: 'error_count / count' },
      p50_ms: { ...nullableNumber, description: 'Interpolated percentile of `duration_ms`.' },
      p95_ms: nullableNumber,
      p99_ms: nullableNumber,
      avg_ms: nullableNumber,
    },
  },
  TransactionList: {
    type: 'object',
    required: ['since', 'until', 'transactions'],
    properties: {
      since: dateTime,
      until: dateTime,
      transactions: {
        type: 'array',
        maxItems: 200,
        description: 'Busiest first (count desc, then name).',
        items: ref('Transaction'),
      },
    },
  },
  MetricBucket: {
    type: 'object',
    description:
      'The metric events with `occurred_at` in [start, start + interval). The value of an event is `context.value`, else its `duration_ms`; events without either count but are not aggregated. An empty bucket has count 0 and null aggregates.',
    required: ['start', 'count', 'sum', 'min', 'max', 'avg'],
    properties: {
      start: dateTime,
      count: { type: 'integer' },
      sum: nullableNumber,
      min: nullableNumber,
      max: nullableNumber,
      avg: nullableNumber,
    },
  },
  LatencyBucket: {
    type: 'object',
    description:
      'The transactions with `occurred_at` in [start, start + interval): count, errors (as in Transaction) and interpolated percentiles and average of `duration_ms`. An empty bucket has count 0 and null timings.',
    required: ['start', 'count', 'error_count', 'p50_ms', 'p95_ms', 'p99_ms', 'avg_ms'],
    properties: {
      start: dateTime,
      count: { type: 'integer' },
      error_count: { type: 'integer' },
      p50_ms: nullableNumber,
      p95_ms: nullableNumber,
      p99_ms: nullableNumber,
      avg_ms: nullableNumber,
    },
  },
  LatencySeries: {
    type: 'object',
    required: ['name', 'since', 'until', 'interval_seconds', 'buckets'],
    properties: {
      name: { ...nullableString, description: 'The transaction name; null for all transactions.' },
      since: dateTime,
      until: dateTime,
      interval_seconds: { type: 'integer', minimum: 1 },
      buckets: {
        type: 'array',
        maxItems: MAX_METRIC_BUCKETS,
        description: 'Every bucket of the window from `since`, oldest first, empty ones included.',
        items: ref('LatencyBucket'),
      },
    },
  },
  MetricSeries: {
    type: 'object',
    required: ['name', 'since', 'until', 'interval_seconds', 'buckets'],
    properties: {
      name: { type: 'string' },
      since: dateTime,
      until: dateTime,
      interval_seconds: { type: 'integer', minimum: 1 },
      buckets: {
        type: 'array',
        maxItems: MAX_METRIC_BUCKETS,
        description: 'Every bucket of the window from `since`, oldest first, empty ones included.',
        items: ref('MetricBucket'),
      },
    },
  },
  Span: {
    type: 'object',
    required: [
      'id',
      'trace_id',
      'span_id',
      'parent_span_id',
      'name',
      'kind',
      'started_at',
      'ended_at',
      'duration_ms',
      'environment',
      'release',
      'status',
      'level',
      'context',
    ],
    properties: {
      id: uuid,
      trace_id: nullableString,
      span_id: nullableString,
      parent_span_id: { ...nullableString, description: 'null for a root span' },
      name: nullableString,
      kind: nullableString,
      started_at: storedTime,
      ended_at: { type: ['string', 'null'], format: 'date-time' },
      duration_ms: {
        ...nullableNumber,
        description: 'As sent, else `ended_at - started_at`; null when neither is known.',
      },
      environment: nullableString,
      release: nullableString,
      status: {
        type: ['string', 'integer', 'null'],
        description:
          'As sent (`ok`, `error`, an HTTP code, …): the top-level `status`, else `context.status`; null when neither is set.',
      },
      level: {
        ...nullableString,
        description: 'As sent; clients send `error` for a failed span. null when not sent.',
      },
      context: { type: 'object' },
    },
  },
  TraceList: {
    type: 'object',
    required: ['traces', 'next_cursor'],
    properties: {
      traces: {
        type: 'array',
        description: 'Root spans (no `parent_span_id`), newest `started_at` first.',
        items: ref('Span'),
      },
      next_cursor: nullableString,
    },
  },
  TraceDetail: {
    type: 'object',
    description: `A trace: its spans (at most ${MAX_TRACE_SPANS}, earliest first; \`truncated\` when there are more) and its other events.`,
    required: [
      'trace_id',
      'root',
      'duration_ms',
      'started_at',
      'ended_at',
      'span_count',
      'truncated',
      'spans',
      'events',
    ],
    properties: {
      trace_id: { type: 'string' },
      root: {
        description:
          'The earliest span without a parent, else the earliest span whose parent is not in the trace; null when the trace has only events.',
        oneOf: [ref('Span'), { type: 'null' }],
      },
      duration_ms: { ...nullableNumber, description: "The root span's duration." },
      started_at: {
        type: ['string', 'null'],
        format: 'date-time',
        description: 'The earliest span start.',
      },
      ended_at: {
        type: ['string', 'null'],
        format: 'date-time',
        description: 'The latest span end (`ended_at`, else start + duration).',
      },
      span_count: { type: 'integer', description: 'The spans returned.' },
      truncated: {
        type: 'boolean',
        description: `true when the trace has more than ${MAX_TRACE_SPANS} spans.`,
      },
      spans: {
        type: 'array',
        maxItems: MAX_TRACE_SPANS,
        description: 'Ordered by `started_at`, then id.',
        items: {
          allOf: [
            ref('Span'),
            {
              type: 'object',
              required: ['depth'],
              properties: {
                depth: {
                  type: 'integer',
                  minimum: 0,
                  description:
                    'Levels below a root; 0 for roots and for spans whose parent is not in the trace.',
                },
              },
            },
          ],
        },
      },
      events: {
        type: 'array',
        maxItems: TRACE_EVENTS_LIMIT,
        description: 'Events other than spans with this trace_id, newest first.',
        items: ref('StoredEvent'),
      },
    },
  },
}

const list = (key: string, item: string) => ({
  '200': {
    description: 'One page, newest first; `next_cursor` is null on the last page.',
    content: json({
      type: 'object',
      required: [key, 'next_cursor'],
      properties: {
        [key]: { type: 'array', items: ref(item) },
        next_cursor: nullableString,
      },
    }),
  },
})
const MONITOR_NOT_FOUND = errorResponse(
  'No such project or monitor (of this project), or the user may not see the project.',
  ref('Error'),
)
const one = (description: string) => ({
  '200': { description, content: json({ type: 'object', properties: { issue: ref('Issue') } }) },
})

/**
 * The read API (issues inbox, events, monitors, deployments, transactions, metrics, traces) as an OpenAPI extension. It uses the management API's
 * user access tokens and visibility: projects the user owns, is a member of, or all for an
 * administrator; 404 otherwise.
 */
export const READS_OPENAPI: OpenApiExtension = {
  tags: [
    {
      name: 'reads',
      description:
        'The issues inbox, the event list, monitors, deployments, transactions, metrics and traces',
    },
  ],
  schemas: SCHEMAS,
  paths: {
    '/api/v1/projects/{id}/issues': {
      get: operation('listIssues', "List a project's issues, newest activity first", {
        parameters: [
          path('id'),
          query('status', 'Default `unresolved`.', {
            type: 'string',
            enum: [...STATUSES, 'all'],
            default: 'unresolved',
          }),
          query('environment', 'Issues with an event in this environment.'),
          query('release', 'Issues with an event in this release.'),
          query('q', 'Case-insensitive substring of the title.'),
          query(
            'sparkline',
            '`24h` adds `sparkline` to each issue: its events in each of the last 24 whole UTC hours (one grouped read for the page).',
            { type: 'string', enum: ['24h'] },
          ),
          ...PAGE,
        ],
        responses: { ...list('issues', 'Issue'), ...errors(401, 404, 422) },
      }),
    },
    '/api/v1/projects/{id}/issues/{issue_id}': {
      get: operation('getIssue', 'Show one issue', {
        parameters: [path('id'), path('issue_id')],
        responses: { ...one('The issue.'), ...errors(401, 404) },
      }),
      patch: operation('updateIssue', 'Resolve, ignore or reopen an issue', {
        description:
          'A new occurrence of a resolved issue reopens it (`unresolved`) and counts a regression; an ignored issue stays ignored and keeps counting.',
        parameters: [path('id'), path('issue_id')],
        requestBody: { required: true, content: json(ref('IssueUpdate')) },
        responses: { ...one('The updated issue.'), ...errors(400, 401, 404, 422) },
      }),
    },
    '/api/v1/projects/{id}/events': {
      get: operation('listEvents', "List a project's events, newest first", {
        parameters: [
          path('id'),
          query('event_type', 'One event type.', { type: 'string', enum: [...EVENT_TYPES] }),
          query('level', 'Exact level.'),
          query('environment', 'Exact environment.'),
          query('release', 'Exact release.'),
          query('trace_id', 'Exact trace id.'),
          query('request_id', 'Exact request id.'),
          query('session_id', 'Exact session id.'),
          query('user_id', 'Exact user id.'),
          query('issue_id', 'Events of one issue.', uuid),
          query('q', 'Case-insensitive substring of the message.'),
          query('since', 'occurred_at at or after (RFC 3339).', dateTime),
          query('until', 'occurred_at before (RFC 3339).', dateTime),
          ...PAGE,
        ],
        responses: { ...list('events', 'StoredEvent'), ...errors(401, 404, 422) },
      }),
    },
    '/api/v1/projects/{id}/events/{event_id}': {
      get: operation('getEvent', 'Show one event with its issue, deployment and related events', {
        parameters: [path('id'), path('event_id')],
        responses: {
          '200': { description: 'The event.', content: json(ref('EventDetail')) },
          ...errors(401, 404),
        },
      }),
    },
    '/api/v1/projects/{id}/monitors': {
      get: operation('listMonitors', "List a project's monitors, latest check-in first", {
        parameters: [
          path('id'),
          query('environment', 'Exact environment.'),
          query('slug', 'Exact slug: the monitors of one job, one per environment.'),
          ...PAGE,
        ],
        responses: { ...list('monitors', 'Monitor'), ...errors(401, 404, 422) },
      }),
    },
    '/api/v1/projects/{id}/monitors/{monitor_id}': {
      get: operation('getMonitor', 'Show one monitor with its status', {
        parameters: [path('id'), path('monitor_id')],
        responses: {
          '200': {
            description: 'The monitor, its status computed now.',
            content: json({
              type: 'object',
              required: ['monitor'],
              properties: { monitor: ref('Monitor') },
            }),
          },
          ...errors(401),
          '404': MONITOR_NOT_FOUND,
        },
      }),
    },
    '/api/v1/projects/{id}/monitors/{monitor_id}/check_ins': {
      get: operation('listCheckIns', "List a monitor's check-ins, newest first", {
        description:
          'The history of one monitor (one slug in one environment): every check-in stored for it, by `occurred_at` desc, then id desc.',
        parameters: [
          path('id'),
          path('monitor_id'),
          query('status', 'Exact status as sent (`ok`, `error`, `in_progress`, …).'),
          query('since', 'occurred_at at or after (RFC 3339).', dateTime),
          query('until', 'occurred_at before (RFC 3339).', dateTime),
          ...PAGE,
        ],
        responses: {
          ...list('check_ins', 'StoredCheckIn'),
          ...errors(401, 422),
          '404': MONITOR_NOT_FOUND,
        },
      }),
    },
    '/api/v1/projects/{id}/deployments': {
      get: operation('listDeployments', "List a project's deployments, newest first", {
        parameters: [
          path('id'),
          query('environment', 'Exact environment.'),
          query('release', 'Exact release.'),
          query('repository', 'Exact repository (owner/name).'),
          ...PAGE,
        ],
        responses: { ...list('deployments', 'Deployment'), ...errors(401, 404, 422) },
      }),
    },
    '/api/v1/projects/{id}/transactions': {
      get: operation('listTransactions', 'Summarize transactions per name, busiest first', {
        description:
          'Count, errors and p50/p95/p99/avg of `duration_ms` per transaction name, over the transactions with `occurred_at` in [since, until).',
        parameters: [
          path('id'),
          ...WINDOW,
          query('environment', 'Exact environment.'),
          query('release', 'Exact release.'),
          query('limit', 'How many names, 1 or more; capped at 200.', {
            type: 'integer',
            minimum: 1,
            default: 50,
          }),
        ],
        responses: {
          '200': { description: 'The busiest names.', content: json(ref('TransactionList')) },
          ...errors(401, 404, 422),
        },
      }),
    },
    '/api/v1/projects/{id}/transactions/latency': {
      get: operation('getTransactionLatency', 'Read transaction latency as time buckets', {
        description: `p50/p95/p99/avg of \`duration_ms\`, count and errors per time bucket from \`since\`, of one transaction name or of all transactions. Window and interval rules are the metric read's: at most ${MAX_METRIC_BUCKETS} buckets, a smaller interval answers 422.`,
        parameters: [
          path('id'),
          query('name', 'One transaction name (`transaction_name`, else `message`); default all.'),
          ...WINDOW,
          ...BUCKETED,
        ],
        responses: {
          '200': {
            description: 'Every bucket of the window, oldest first.',
            content: json(ref('LatencySeries')),
          },
          ...errors(401, 404, 422),
        },
      }),
    },
    '/api/v1/projects/{id}/metrics': {
      get: operation('getMetric', 'Read one metric as time buckets', {
        description: `Metric events whose \`message\` is \`name\`, bucketed from \`since\` by \`interval\`. At most ${MAX_METRIC_BUCKETS} buckets: a smaller interval answers 422.`,
        parameters: [
          path('id'),
          {
            ...query('name', 'The metric name (the `message` of its metric events).'),
            required: true,
          },
          ...WINDOW,
          ...BUCKETED,
        ],
        responses: {
          '200': {
            description: 'Every bucket of the window, oldest first.',
            content: json(ref('MetricSeries')),
          },
          ...errors(401, 404, 422),
        },
      }),
    },
    '/api/v1/projects/{id}/traces': {
      get: operation('listTraces', 'List recent root spans, newest first', {
        parameters: [
          path('id'),
          query('kind', 'Span kind of the roots; default `server` and `browser`.'),
          query('since', 'started_at at or after (RFC 3339).', dateTime),
          query('until', 'started_at before (RFC 3339).', dateTime),
          query('environment', 'Exact environment.'),
          query('release', 'Exact release.'),
          query('q', 'Case-insensitive substring of the span name.'),
          ...PAGE,
        ],
        responses: {
          '200': {
            description: 'One page, newest first; `next_cursor` is null on the last page.',
            content: json(ref('TraceList')),
          },
          ...errors(401, 404, 422),
        },
      }),
    },
    '/api/v1/projects/{id}/traces/{trace_id}': {
      get: operation('getTrace', 'Show one trace: its span tree and events', {
        parameters: [
          path('id'),
          { name: 'trace_id', in: 'path', required: true, schema: { type: 'string' } },
        ],
        responses: {
          '200': { description: 'The trace.', content: json(ref('TraceDetail')) },
          ...errors(401),
          '404': errorResponse(
            'No such project, or the user may not see it, or the trace has neither spans nor events.',
            ref('Error'),
          ),
        },
      }),
    },
  },
}
