import { MAX_BATCH_ENVELOPES } from '@tis/ingest'
import {
  acceptedCheckInSchema,
  acceptedDeploymentSchema,
  acceptedEventSchema,
  acceptedSpanSchema,
  mobileTokenResponseSchema,
  rateLimitErrorBodySchema,
} from '@tis/schema'
import * as z from 'zod'
import type { FuzzReply } from './server'

/** What an endpoint may answer, and the shape of its success bodies. */
export interface EndpointSpec {
  /** Statuses the endpoint may answer; anything else is a finding. */
  readonly statuses: readonly number[]
  /** Bodies of their own by status: the success bodies (200/201/202), and a batch's 422. */
  readonly success: Partial<Record<number, z.ZodType>>
  /** Answers after authentication carry `X-RateLimit-*` (ingestion endpoints). */
  readonly rateLimitHeaders?: readonly number[]
}

const strict = <T extends z.ZodObject>(schema: T) => schema.strict()
const acceptedEvent = strict(acceptedEventSchema.omit({ duplicate: true }))
const acceptedSpan = strict(acceptedSpanSchema.omit({ duplicate: true }))
const duplicateOf = <T extends z.ZodObject>(schema: T) =>
  schema.extend({ duplicate: z.literal(true) }).strict()

const lineType = z.union([z.literal('event'), z.literal('span')])

/** One line of a batch answer: accepted (new or duplicate), rejected or rolled back. */
const batchLine = z.union([
  z.strictObject({
    index: z.int().min(0),
    status: z.literal('accepted'),
    type: lineType,
    id: z.uuid(),
    legacy_id: z.int(),
    duplicate: z.boolean(),
  }),
  z.strictObject({
    index: z.int().min(0),
    status: z.union([z.literal('rejected'), z.literal('rolled_back')]),
    type: lineType,
    errors: z.array(z.string().min(1)).min(1),
  }),
])

const batchHeader = { schema_version: z.literal(1), batch_id: z.string().min(1).max(128) }

/** `202` body of `POST /api/v1/ingest_events/batch`: every line accepted. */
export const batchAcceptedSchema = z.strictObject({
  ...batchHeader,
  status: z.literal('accepted'),
  accepted: z.int().min(1),
  duplicates: z.int().min(0),
  results: z.array(batchLine).min(1).max(MAX_BATCH_ENVELOPES),
})

/** `422` body of the batch endpoint: at least one line rejected, nothing stored. */
export const batchRejectedSchema = z.strictObject({
  ...batchHeader,
  status: z.literal('rejected'),
  rejected: z.int().min(1),
  rolled_back: z.int().min(0),
  results: z.array(batchLine).min(1).max(MAX_BATCH_ENVELOPES),
})

/** A JSON object holding at least `keys`. */
const withKeys = (...keys: string[]) =>
  z.looseObject(
    Object.fromEntries(keys.map((k) => [k, z.unknown().refine((v) => v !== undefined)])),
  )

const list = (key: string) =>
  withKeys(key, 'next_cursor').refine((b) => Array.isArray(b[key]), `${key} is not an array`)

/** `200` body of `GET …/monitors/:monitor_id/check_ins`: every item exactly as documented. */
const checkInPage = z.strictObject({
  check_ins: z.array(
    z.strictObject({
      id: z.uuid(),
      occurred_at: z.iso.datetime(),
      received_at: z.iso.datetime(),
      status: z.string(),
      duration_ms: z.number().min(0).nullable(),
      environment: z.string(),
      release: z.string().nullable(),
      trace_id: z.string().nullable(),
      request_id: z.string().nullable(),
      source: z.enum(['check_in', 'event', 'scheduler']),
      event_id: z.uuid().nullable(),
      message: z.string().nullable(),
      context: z.record(z.string(), z.unknown()),
      extra: z.record(z.string(), z.unknown()),
    }),
  ),
  next_cursor: z.string().nullable(),
})

// 415: an unknown Content-Encoding on a single-record endpoint (issue 17), answered after the
// credential and the rate limit, so with the X-RateLimit-* headers.
const INGEST = { rateLimitHeaders: [200, 201, 400, 415, 422, 429] } as const
const ERRORS = [400, 401, 403, 413, 415, 422, 429] as const

/** Every fuzzed endpoint by name. */
export const ENDPOINTS = {
  ingestEvent: {
    ...INGEST,
    statuses: [200, 201, ...ERRORS],
    success: {
      201: z.union([acceptedSpan, acceptedEvent]),
      200: z.union([duplicateOf(acceptedSpanSchema), duplicateOf(acceptedEventSchema)]),
    },
  },
  batch: {
    rateLimitHeaders: [202, 422, 429],
    statuses: [202, 400, 401, 413, 415, 422, 429],
    success: { 202: batchAcceptedSchema, 422: batchRejectedSchema },
  },
  checkIn: {
    ...INGEST,
    statuses: [200, 201, ...ERRORS],
    success: {
      201: strict(acceptedCheckInSchema.omit({ duplicate: true })),
      200: duplicateOf(acceptedCheckInSchema),
    },
  },
  deployment: {
    ...INGEST,
    statuses: [201, ...ERRORS],
    success: { 201: strict(acceptedDeploymentSchema) },
  },
  mobileToken: {
    ...INGEST,
    statuses: [201, ...ERRORS],
    success: { 201: strict(mobileTokenResponseSchema) },
  },
  createUser: {
    statuses: [201, 400, 401, 403, 413, 422],
    success: { 201: withKeys('user', 'access_token') },
  },
  createProject: {
    statuses: [201, 400, 401, 403, 413, 422],
    success: { 201: withKeys('project') },
  },
  createApiKey: {
    statuses: [201, 400, 401, 403, 404, 413, 422],
    success: { 201: withKeys('api_key', 'token') },
  },
  addMember: {
    statuses: [200, 201, 400, 401, 403, 404, 413, 422],
    success: { 200: withKeys('member'), 201: withKeys('member') },
  },
  setRateLimits: {
    statuses: [200, 400, 401, 403, 404, 413, 422],
    success: { 200: withKeys('rate_limit') },
  },
  setSourceSettings: {
    statuses: [200, 400, 401, 403, 404, 413, 422],
    success: { 200: withKeys('source_settings') },
  },
  updateIssue: {
    statuses: [200, 400, 401, 403, 404, 413, 422],
    success: { 200: withKeys('issue') },
  },
  createAlertChannel: {
    statuses: [201, 400, 401, 404, 413, 422],
    success: { 201: withKeys('alert_channel', 'secret') },
  },
  createAlertRule: {
    statuses: [201, 400, 401, 404, 413, 422],
    success: { 201: withKeys('alert_rule') },
  },
  listIssues: { statuses: [200, 400, 401, 404, 422], success: { 200: list('issues') } },
  getIssue: { statuses: [200, 401, 404, 422], success: { 200: withKeys('issue') } },
  listEvents: { statuses: [200, 400, 401, 404, 422], success: { 200: list('events') } },
  getEvent: {
    statuses: [200, 401, 404, 422],
    success: { 200: withKeys('event', 'issue', 'deployment', 'related') },
  },
  listMonitors: { statuses: [200, 401, 404, 422], success: { 200: list('monitors') } },
  getMonitor: { statuses: [200, 401, 404, 422], success: { 200: withKeys('monitor') } },
  listCheckIns: { statuses: [200, 401, 404, 422], success: { 200: checkInPage } },
  listDeployments: { statuses: [200, 401, 404, 422], success: { 200: list('deployments') } },
  listTransactions: {
    statuses: [200, 401, 404, 422],
    success: { 200: withKeys('since', 'until', 'transactions') },
  },
  getMetric: {
    statuses: [200, 401, 404, 422],
    success: { 200: withKeys('name', 'since', 'until', 'interval_seconds', 'buckets') },
  },
  getTransactionLatency: {
    statuses: [200, 401, 404, 422],
    success: { 200: withKeys('name', 'since', 'until', 'interval_seconds', 'buckets') },
  },
  listTraces: { statuses: [200, 401, 404, 422], success: { 200: list('traces') } },
  getTrace: {
    statuses: [200, 401, 404, 422],
    success: { 200: withKeys('trace_id', 'root', 'spans', 'events', 'span_count', 'truncated') },
  },
} satisfies Record<string, EndpointSpec>

/** Name of a fuzzed endpoint. */
export type EndpointName = keyof typeof ENDPOINTS

const errorBody = z.strictObject({ error: z.string().min(1) })
const errorsBody = z.strictObject({ errors: z.array(z.string().min(1)).min(1) })
const FIXED: Partial<Record<number, unknown>> = {
  401: { error: 'Unauthorized' },
  403: { error: 'Forbidden' },
}

function checkRateLimitHeaders(reply: FuzzReply): string[] {
  const problems: string[] = []
  for (const name of ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']) {
    const value = reply.headers.get(name)
    if (value === null || !/^\d+$/.test(value)) problems.push(`${name} is ${value}`)
  }
  return problems
}

/**
 * The problems of one reply against the spec: status not below 500 and documented for the
 * endpoint, a JSON body of the documented shape for its status, the required headers.
 * An empty list means the reply is fine.
 */
export function replyProblems(endpoint: EndpointName, reply: FuzzReply): string[] {
  const spec: EndpointSpec = ENDPOINTS[endpoint]
  const { status } = reply
  if (status >= 500) return [`status ${status}`]
  if (!spec.statuses.includes(status)) return [`undocumented status ${status}`]
  let body: unknown
  try {
    body = JSON.parse(reply.text)
  } catch {
    return [`body is not JSON: ${JSON.stringify(reply.text.slice(0, 200))}`]
  }
  const problems: string[] = []
  const type = reply.headers.get('content-type') ?? ''
  if (!type.startsWith('application/json')) problems.push(`content-type ${type}`)
  const schema =
    spec.success[status] ??
    (status === 422 ? errorsBody : status === 429 ? rateLimitErrorBodySchema.strict() : errorBody)
  const parsed = schema.safeParse(body)
  if (!parsed.success) problems.push(`body does not match: ${parsed.error.message}`)
  const fixed = FIXED[status]
  if (fixed !== undefined && JSON.stringify(body) !== JSON.stringify(fixed)) {
    problems.push(`body is not ${JSON.stringify(fixed)}`)
  }
  if (status === 429) {
    const retry = reply.headers.get('Retry-After')
    if (retry === null || !/^\d+$/.test(retry) || Number(retry) < 1) {
      problems.push(`Retry-After is ${retry}`)
    }
  }
  if (spec.rateLimitHeaders?.includes(status)) problems.push(...checkRateLimitHeaders(reply))
  if (endpoint === 'batch') problems.push(...batchConsistency(body))
  return problems
}

/**
 * The batch counters agree with its per-line results, each line indexed in order: a 202 has only
 * accepted lines, a 422 at least one rejected line and every other one rolled back.
 */
function batchConsistency(body: unknown): string[] {
  const accepted = batchAcceptedSchema.safeParse(body)
  const rejected = batchRejectedSchema.safeParse(body)
  const results = accepted.data?.results ?? rejected.data?.results
  if (!results) return []
  const count = (s: string) => results.filter((r) => r.status === s).length
  const problems: string[] = []
  results.forEach((r, i) => {
    if (r.index !== i) problems.push(`results[${i}].index is ${r.index}`)
  })
  if (accepted.data) {
    const b = accepted.data
    const dups = results.filter((r) => r.status === 'accepted' && r.duplicate).length
    if (count('accepted') !== results.length) problems.push('a 202 with lines not accepted')
    if (b.accepted !== results.length) problems.push(`accepted ${b.accepted} ≠ ${results.length}`)
    if (b.duplicates !== dups) problems.push(`duplicates ${b.duplicates} ≠ ${dups}`)
  }
  if (rejected.data) {
    const b = rejected.data
    if (b.rejected !== count('rejected'))
      problems.push(`rejected ${b.rejected} ≠ ${count('rejected')}`)
    if (b.rolled_back !== count('rolled_back') || count('accepted') > 0) {
      problems.push(`rolled_back ${b.rolled_back} ≠ ${count('rolled_back')} (others accepted)`)
    }
  }
  return problems
}
