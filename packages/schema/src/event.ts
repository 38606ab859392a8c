import * as z from 'zod'
import {
  canonicalizeContext,
  copyIntoContext,
  type EventContext,
  eventContextSchema,
} from './context'
import { EVENT_TYPES, REPOSITORY_ALIASES, SPAN_KINDS } from './enums'
import { ENVELOPE_KEYS, unwrapEnvelope } from './envelope'
import {
  commitSha,
  dateTime,
  durationMs,
  eventId,
  intervalSeconds,
  oneOf,
  repository,
  statusValue,
  text,
  userId,
} from './formats'
import { canonicalizeKeys, isPlainObject, type JsonObject, type KeySpec } from './keys'
import { LIMITS } from './limits'
import { formatIssues, type Problem, renderProblems } from './messages'
import { type KnownFields, type ParseResult, success, unprocessable } from './result'

/** The `event` object of `POST /api/v1/ingest_events` (section 2.1), after normalisation. */
export const eventSchema = z
  .looseObject({
    event_type: oneOf(EVENT_TYPES),
    message: text(LIMITS.maxMessageLength)
      .optional()
      .meta({ description: 'Primary label; required for every type except `span`.' }),
    name: text(LIMITS.maxMessageLength).optional().meta({ description: 'Span label.' }),
    level: text().optional().meta({ description: 'Severity: info, warn, error, fatal, …' }),
    fingerprint: text().optional().meta({ description: 'Stable grouping key.' }),
    occurred_at: dateTime().optional().meta({ description: 'Defaults to the receive time.' }),
    environment: text().optional(),
    release: text().optional(),
    commit_sha: commitSha().optional(),
    repository: repository().optional(),
    branch: text().optional(),
    trace_id: text().optional(),
    request_id: text().optional(),
    session_id: text().optional(),
    user_id: userId().optional(),
    transaction_name: text().optional(),
    duration_ms: durationMs().optional(),
    expected_interval_seconds: intervalSeconds().optional(),
    check_in_slug: text().optional(),
    check_in_status: text().optional(),
    status: statusValue().optional(),
    span_id: text().optional(),
    parent_span_id: text().optional(),
    kind: oneOf(SPAN_KINDS).optional(),
    started_at: dateTime().optional(),
    ended_at: dateTime().optional(),
    context: eventContextSchema.optional(),
    event_id: eventId().optional(),
  })
  .meta({
    id: 'tis.Event',
    description: 'A telemetry event (section 2.1); unknown properties are kept.',
  })

/** The documented event fields in interface order; 422 messages follow it. */
export const EVENT_FIELDS = Object.keys(eventSchema.shape)

const EVENT_KEYS: KeySpec = {
  known: new Set(EVENT_FIELDS),
  aliases: {
    ...REPOSITORY_ALIASES,
    monitor_slug: 'check_in_slug',
    span_kind: 'kind',
    uuid: 'event_id',
  },
}

/** An accepted event: canonical names, `occurred_at` always set, `context` always an object. */
export type NormalizedEvent = Omit<
  KnownFields<typeof eventSchema.shape>,
  'occurred_at' | 'context'
> &
  Record<string, unknown> & {
    occurred_at: string
    context: EventContext
  }

/** Options of {@link parseEventEnvelope}. */
export interface ParseEventOptions {
  /**
   * The receive time, used when the event has no `occurred_at` (and, for spans, no `started_at`).
   * @default new Date()
   */
  readonly now?: Date
}

const blank = (v: unknown) => v === undefined || (typeof v === 'string' && v.trim() === '')

/** Rules that span fields, checked on the canonical input so every problem is listed at once. */
function crossFieldProblems(event: JsonObject): Problem[] {
  const problems: Problem[] = []
  if (event['event_type'] === 'span') {
    if (blank(event['name']) && blank(event['message'])) {
      problems.push({
        path: ['name'],
        message: "can't be blank (a span needs a name or a message)",
      })
    }
  } else if (blank(event['message'])) {
    problems.push({ path: ['message'], message: "can't be blank" })
  }
  if (event['event_type'] === 'check_in' && blank(event['check_in_slug'])) {
    problems.push({
      path: ['check_in_slug'],
      message: "can't be blank (a check_in event names its monitor)",
    })
  }
  const started = event['started_at']
  const ended = event['ended_at']
  if (typeof started === 'string' && typeof ended === 'string') {
    const [s, e] = [Date.parse(started), Date.parse(ended)]
    if (!Number.isNaN(s) && !Number.isNaN(e) && e < s) {
      problems.push({ path: ['ended_at'], message: 'must not be before started_at' })
    }
  }
  return problems
}

/**
 * Parses the body of `POST /api/v1/ingest_events`: unwraps `event`/`EVENT`, renames camelCase,
 * upper-case and aliased fields, validates section 2.1, copies the convenience fields into
 * `context` and defaults `occurred_at`.
 */
export function parseEventEnvelope(
  body: unknown,
  options: ParseEventOptions = {},
): ParseResult<NormalizedEvent> {
  const unwrapped = unwrapEnvelope(body, ENVELOPE_KEYS.event)
  if (!unwrapped.ok) return unwrapped
  const input = canonicalizeKeys(unwrapped.value, EVENT_KEYS)
  if (isPlainObject(input['context'])) input['context'] = canonicalizeContext(input['context'])

  const parsed = eventSchema.safeParse(input)
  const problems = [...crossFieldProblems(input)]
  if (!parsed.success) problems.push(...formatIssues(parsed.error.issues))
  if (problems.length > 0 || !parsed.success) {
    return unprocessable(renderProblems(problems, EVENT_FIELDS))
  }

  const event = parsed.data
  const occurredAt =
    event.occurred_at ??
    (event.event_type === 'span' ? event.started_at : undefined) ??
    (options.now ?? new Date()).toISOString()
  const context = copyIntoContext(event, event.context ?? {}) as EventContext
  return success({ ...event, occurred_at: occurredAt, context } as NormalizedEvent)
}
