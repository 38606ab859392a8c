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
  /** Success bodies (200/201/204) by status. */
  readonly success: Partial<Record<number, z.ZodType>>
  /** Answers after authentication carry `X-RateLimit-*` (ingestion endpoints). */
  readonly rateLimitHeaders?: readonly number[]
}

const strict = <T extends z.ZodObject>(schema: T) => schema.strict()
const acceptedEvent = strict(acceptedEventSchema.omit({ duplicate: true }))
const acceptedSpan = strict(acceptedSpanSchema.omit({ duplicate: true }))
const duplicateOf = <T extends z.ZodObject>(schema: T) =>
  schema.extend({ duplicate: z.literal(true) }).strict()

/** A 201 or 200 line of a batch answer, or a rejected line. */
const batchLine = z.union([
  z.strictObject({
    index: z.int().min(0),
    status: z.literal(201),
    id: z.uuid(),
    legacy_id: z.int(),
    type: z.literal('span').optional(),
  }),
  z.strictObject({
    index: z.int().min(0),
    status: z.literal(200),
    id: z.uuid(),
    legacy_id: z.int(),
    type: z.literal('span').optional(),
    duplicate: z.literal(true),
  }),
  z.strictObject({
    index: z.int().min(0),
    status: z.union([z.literal(400), z.literal(403), z.literal(429)]),
    error: z.string().min(1),
  }),
  z.strictObject({
    index: z.int().min(0),
    status: z.literal(422),
    errors: z.array(z.string().min(1)).min(1),
  }),
])

/** `200` body of `POST /api/v1/ingest_events/batch`. */
export const batchBodySchema = z.strictObject({
  accepted: z.int().min(0),
  duplicates: z.int().min(0),
  rejected: z.int().min(0),
  rate_limited: z.int().min(0),
  results: z.array(batchLine).min(1).max(100),
})

/** A JSON object holding at least `keys`. */
const withKeys = (...keys: string[]) =>
  z.looseObject(
    Object.fromEntries(keys.map((k) => [k, z.unknown().refine((v) => v !== undefined)])),
  )

const list = (key: string) =>
  withKeys(key, 'next_cursor').refine((b) => Array.isArray(b[key]), `${key} is not an array`)

const INGEST = { rateLimitHeaders: [200, 201, 400, 422, 429] } as const
const ERRORS = [400, 401, 403, 413, 422, 429] as const

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
    rateLimitHeaders: [200, 429],
    statuses: [200, 400, 401, 403, 413, 415, 422, 429],
    success: { 200: batchBodySchema },
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
  listIssues: { statuses: [200, 401, 404, 422], success: { 200: list('issues') } },
  getIssue: { statuses: [200, 401, 404, 422], success: { 200: withKeys('issue') } },
  listEvents: { statuses: [200, 401, 404, 422], success: { 200: list('events') } },
  getEvent: {
    statuses: [200, 401, 404, 422],
    success: { 200: withKeys('event', 'issue', 'deployment', 'related') },
  },
  listMonitors: { statuses: [200, 401, 404, 422], success: { 200: list('monitors') } },
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
  if (status === 200 && endpoint === 'batch') problems.push(...batchConsistency(body))
  return problems
}

/** The batch counters agree with its per-line results. */
function batchConsistency(body: unknown): string[] {
  const parsed = batchBodySchema.safeParse(body)
  if (!parsed.success) return []
  const b = parsed.data
  const count = (s: number) => b.results.filter((r) => r.status === s).length
  const problems: string[] = []
  if (b.accepted !== count(201)) problems.push(`accepted ${b.accepted} ≠ ${count(201)} lines`)
  if (b.duplicates !== count(200)) problems.push(`duplicates ${b.duplicates} ≠ ${count(200)}`)
  if (b.rate_limited !== count(429)) problems.push(`rate_limited ${b.rate_limited} ≠ ${count(429)}`)
  const rejected = count(400) + count(403) + count(422)
  if (b.rejected !== rejected) problems.push(`rejected ${b.rejected} ≠ ${rejected}`)
  b.results.forEach((r, i) => {
    if (r.index !== i) problems.push(`results[${i}].index is ${r.index}`)
  })
  return problems
}
