import { EVENT_TYPES, type OpenApiExtension, type OpenApiObject } from '@tis/schema'

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })
const json = (schema: OpenApiObject) => ({ 'application/json': { schema } })
const dateTime = { type: 'string', format: 'date-time' }
const uuid = { type: 'string', format: 'uuid' }
const nullableString = { type: ['string', 'null'] }
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
const errorResponse = (description: string, body: OpenApiObject) => ({
  description,
  content: json(body),
})
const errors = (...statuses: number[]) => {
  const all: Record<string, OpenApiObject> = {
    '400': errorResponse('The body is not valid JSON.', ref('Error')),
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
      first_seen_at: dateTime,
      last_seen_at: dateTime,
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
      occurred_at: dateTime,
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
      last_check_in_at: dateTime,
      expected_interval_seconds: { type: 'integer' },
      next_expected_at: dateTime,
      missed_after: dateTime,
      last_release: nullableString,
      check_in_count: { type: 'integer' },
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
      deployed_at: dateTime,
      pull_request_number: nullableString,
      pull_request_url: nullableString,
      release_url: nullableString,
      compare_url: nullableString,
      workflow_run_url: nullableString,
      deployment_url: nullableString,
      source: {
        type: 'string',
        enum: ['api', 'event'],
        description: '`event` when only known from an event.',
      },
    },
  },
  EventDetail: {
    type: 'object',
    required: ['event', 'issue', 'deployment', 'related'],
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
const one = (description: string) => ({
  '200': { description, content: json({ type: 'object', properties: { issue: ref('Issue') } }) },
})

/**
 * The read API (issues inbox, events, monitors, deployments) as an OpenAPI extension. It uses the management API's
 * user access tokens and visibility: projects the user owns, is a member of, or all for an
 * administrator; 404 otherwise.
 */
export const READS_OPENAPI: OpenApiExtension = {
  tags: [
    {
      name: 'reads',
      description: 'The issues inbox, the event list, monitors and deployments',
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
        parameters: [path('id'), query('environment', 'Exact environment.'), ...PAGE],
        responses: { ...list('monitors', 'Monitor'), ...errors(401, 404, 422) },
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
  },
}
