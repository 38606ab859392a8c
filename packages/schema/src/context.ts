import * as z from 'zod'
import { REPOSITORY_ALIASES, SPAN_KINDS } from './enums'
import {
  commitSha,
  dateTime,
  durationMs,
  freeObject,
  intervalSeconds,
  metricValue,
  oneOf,
  repository,
  statusValue,
  text,
  userId,
} from './formats'
import { canonicalizeKeys, isPlainObject, type JsonObject, type KeySpec } from './keys'
import { LIMITS } from './limits'
import type { KnownFields } from './result'

const exceptionSchema = z
  .looseObject({ exception_class: text().optional() }, { error: 'must be an object' })
  .meta({ description: 'Error details: class, message, stack frames; any other keys are kept.' })

const requestSchema = z
  .looseObject(
    {
      method: text().optional(),
      url: text(8_192).optional(),
      path: text(8_192).optional(),
      query_string: text(8_192).optional(),
      route: text().optional(),
      headers: freeObject().optional(),
      params: freeObject().optional(),
      request_id: text().optional(),
    },
    { error: 'must be an object' },
  )
  .meta({ description: 'The HTTP request the event happened in.' })

const tagsSchema = z
  .record(text(200), text().meta({ description: 'Tag value' }), {
    error: 'must be an object of string values',
  })
  .refine((tags) => Object.keys(tags).length <= LIMITS.maxTags, {
    error: `has too many entries (maximum is ${LIMITS.maxTags})`,
  })

/** `context` of an event (section 2.2): known properties are typed, any other key is kept. */
export const eventContextSchema = z
  .looseObject(
    {
      environment: text().optional(),
      release: text().optional(),
      branch: text().optional(),
      service: text().optional(),
      commit_sha: commitSha().optional(),
      repository: repository().optional(),
      trace_id: text().optional(),
      request_id: text().optional(),
      session_id: text().optional(),
      user_id: userId().optional(),
      transaction_name: text().optional(),
      duration_ms: durationMs().optional(),
      value: metricValue().optional(),
      unit: text().optional(),
      tags: tagsSchema.optional(),
      exception: exceptionSchema.optional(),
      request: requestSchema.optional(),
      method: text().optional(),
      url: text(8_192).optional(),
      check_in_slug: text().optional(),
      check_in_status: text().optional(),
      expected_interval_seconds: intervalSeconds().optional(),
      metadata: freeObject().optional(),
      span_id: text().optional(),
      parent_span_id: text().optional(),
      kind: oneOf(SPAN_KINDS).optional(),
      started_at: dateTime().optional(),
      ended_at: dateTime().optional(),
      status: statusValue().optional(),
    },
    { error: 'must be an object' },
  )
  .meta({ id: 'tis.EventContext', description: 'Structured metadata of an event (section 2.2).' })

/** The normalised `context` of an accepted event. */
export type EventContext = KnownFields<typeof eventContextSchema.shape> & Record<string, unknown>

const CONTEXT_KEYS: KeySpec = {
  known: new Set(Object.keys(eventContextSchema.shape)),
  aliases: { ...REPOSITORY_ALIASES, monitor_slug: 'check_in_slug', span_kind: 'kind' },
}
const EXCEPTION_KEYS: KeySpec = { known: new Set(['exception_class']) }
const REQUEST_KEYS: KeySpec = { known: new Set(Object.keys(requestSchema.shape)) }

/** Canonical names for `context` and its `exception` and `request` objects; other values as given. */
export function canonicalizeContext(context: JsonObject): JsonObject {
  const out = canonicalizeKeys(context, CONTEXT_KEYS)
  if (isPlainObject(out['exception']))
    out['exception'] = canonicalizeKeys(out['exception'], EXCEPTION_KEYS)
  if (isPlainObject(out['request'])) out['request'] = canonicalizeKeys(out['request'], REQUEST_KEYS)
  return out
}

/**
 * Top-level event fields copied into `context` when `context` does not already set them
 * (section 2.1, "Convenience copying"); aliases arrive here under their canonical names.
 */
export const CONTEXT_COPY_FIELDS = [
  'environment',
  'release',
  'trace_id',
  'request_id',
  'session_id',
  'user_id',
  'transaction_name',
  'duration_ms',
  'span_id',
  'parent_span_id',
  'kind',
  'started_at',
  'ended_at',
  'expected_interval_seconds',
  'check_in_slug',
  'check_in_status',
  'status',
] as const

/** Copies {@link CONTEXT_COPY_FIELDS} from `event` into a new context, never overwriting. */
export function copyIntoContext(event: JsonObject, context: JsonObject): JsonObject {
  const out: JsonObject = {}
  for (const key in context) if (Object.hasOwn(context, key)) out[key] = context[key]
  for (const field of CONTEXT_COPY_FIELDS) {
    if (event[field] !== undefined && out[field] === undefined) out[field] = event[field]
  }
  return out
}
