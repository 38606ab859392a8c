import * as z from 'zod'
import { CONTEXT_RULES, contextKeySpec } from './context-rules'
import { EVENT_TYPES, REPOSITORY_ALIASES } from './enums'
import {
  commitSha,
  durationMs,
  freeObject,
  metricValue,
  repository,
  USER_ID_BOUNDS,
} from './formats'
import { canonicalizeKeys, isPlainObject, type JsonObject, type KeySpec } from './keys'
import { LIMITS } from './limits'
import type { KnownFields } from './result'
import { clippedStringOrInteger, clippedText } from './truncate'

const exceptionSchema = z
  .looseObject({ exception_class: clippedText().optional() }, { error: 'must be an object' })
  .meta({ description: 'Error details: class, message, stack frames; any other keys are kept.' })

const requestSchema = z
  .looseObject(
    {
      method: clippedText().optional(),
      url: clippedText(LIMITS.maxUrlLength).optional(),
      path: clippedText(LIMITS.maxUrlLength).optional(),
      query_string: clippedText(LIMITS.maxUrlLength).optional(),
      route: clippedText().optional(),
      headers: freeObject().optional(),
      params: freeObject().optional(),
      request_id: clippedText().optional(),
    },
    { error: 'must be an object' },
  )
  .meta({ description: 'The HTTP request the event happened in.' })

const tagsSchema = z
  .record(clippedText(LIMITS.maxTagKeyLength), clippedText().meta({ description: 'Tag value' }), {
    error: 'must be an object of string values',
  })
  .refine((tags) => Object.keys(tags).length <= LIMITS.maxTags, {
    error: `has too many entries (maximum is ${LIMITS.maxTags})`,
  })

/** Documentation of a property validated only where it is used (see `CONTEXT_RULES`). */
const ruleDocs = Object.fromEntries(
  Object.entries(CONTEXT_RULES).map(([name, rule]) => [
    name,
    z.unknown().optional().meta({ description: rule.description }),
  ]),
)

/**
 * `context` of an event (section 2.2). The properties of section 2.2 are validated on every event
 * (its check-in fields on check_in events only); span and HTTP fields only where the event uses
 * them (`CONTEXT_RULES`). Any other key is user context, kept as sent.
 */
export const eventContextSchema = z
  .looseObject(
    {
      environment: clippedText().optional(),
      release: clippedText().optional(),
      branch: clippedText().optional(),
      service: clippedText().optional(),
      commit_sha: commitSha().optional(),
      repository: repository().optional(),
      trace_id: clippedText().optional(),
      request_id: clippedText().optional(),
      session_id: clippedText().optional(),
      user_id: clippedStringOrInteger(USER_ID_BOUNDS).optional(),
      transaction_name: clippedText().optional(),
      duration_ms: durationMs().optional(),
      value: metricValue().optional(),
      unit: clippedText().optional(),
      tags: tagsSchema.optional(),
      exception: exceptionSchema.optional(),
      request: requestSchema.optional(),
      metadata: freeObject().optional(),
      ...ruleDocs,
    },
    { error: 'must be an object' },
  )
  .meta({ id: 'tis.EventContext', description: 'Structured metadata of an event (section 2.2).' })

/** The normalised `context` of an accepted event. */
export type EventContext = KnownFields<typeof eventContextSchema.shape> & Record<string, unknown>

const BASE_CONTEXT_KEYS: KeySpec = {
  known: new Set(Object.keys(eventContextSchema.shape).filter((k) => !(k in CONTEXT_RULES))),
  aliases: REPOSITORY_ALIASES,
}
/** Documented context names per event type (anything else: the properties of every event). */
const CONTEXT_KEYS = new Map<unknown, KeySpec>(
  EVENT_TYPES.map((type) => [type, contextKeySpec(BASE_CONTEXT_KEYS, type)]),
)
const EXCEPTION_KEYS: KeySpec = { known: new Set(['exception_class']) }
const REQUEST_KEYS: KeySpec = { known: new Set(Object.keys(requestSchema.shape)) }

/**
 * Canonical names for the documented keys of an event's `context` (those of its `event_type`:
 * see `CONTEXT_RULES`) and of its `exception` and `request` objects. Every other key, at every
 * depth, is user context and kept exactly as sent.
 */
export function canonicalizeContext(context: JsonObject, eventType?: unknown): JsonObject {
  const out = canonicalizeKeys(context, CONTEXT_KEYS.get(eventType) ?? BASE_CONTEXT_KEYS)
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
