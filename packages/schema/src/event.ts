import * as z from 'zod'
import {
  canonicalizeContext,
  copyIntoContext,
  type EventContext,
  eventContextSchema,
} from './context'
import { checkContextRules } from './context-rules'
import { EVENT_TYPES, REPOSITORY_ALIASES, SPAN_KINDS } from './enums'
import { ENVELOPE_KEYS, unwrapEnvelope } from './envelope'
import { crossFieldProblems, effectiveSpanField } from './event-rules'
import {
  commitSha,
  dateTime,
  durationMs,
  eventId,
  intervalSeconds,
  oneOf,
  repository,
  STATUS_BOUNDS,
  USER_ID_BOUNDS,
} from './formats'
import { canonicalizeKeys, isPlainObject, type JsonObject, type KeySpec } from './keys'
import { LIMITS } from './limits'
import { formatIssues, renderProblems } from './messages'
import { type KnownFields, type ParseResult, success, unprocessable } from './result'
import { storedSpanKind } from './span-kind'
import { nestedTraceId } from './trace-id'
import { clippedStringOrInteger, clippedText } from './truncate'

/** The `event` object of `POST /api/v1/ingest_events` (section 2.1), after normalisation. */
export const eventSchema = z
  .looseObject({
    event_type: oneOf(EVENT_TYPES),
    message: clippedText(LIMITS.maxMessageLength)
      .optional()
      .meta({ description: 'Primary label; required for every type except `span`.' }),
    name: clippedText(LIMITS.maxMessageLength).optional().meta({ description: 'Span label.' }),
    level: clippedText().optional().meta({ description: 'Severity: info, warn, error, fatal, …' }),
    fingerprint: clippedText().optional().meta({ description: 'Stable grouping key.' }),
    occurred_at: dateTime().optional().meta({
      description: 'Defaults to the receive time (alias `checked_at` on check_in events).',
    }),
    environment: clippedText().optional(),
    release: clippedText().optional(),
    commit_sha: commitSha().optional(),
    repository: repository().optional(),
    branch: clippedText().optional(),
    trace_id: clippedText().optional(),
    request_id: clippedText().optional(),
    session_id: clippedText().optional(),
    user_id: clippedStringOrInteger(USER_ID_BOUNDS).optional(),
    transaction_name: clippedText().optional(),
    duration_ms: durationMs().optional(),
    expected_interval_seconds: intervalSeconds().optional(),
    check_in_slug: clippedText().optional(),
    check_in_status: clippedText().optional(),
    status: clippedStringOrInteger(STATUS_BOUNDS).optional(),
    span_id: clippedText().optional(),
    parent_span_id: clippedText().optional(),
    kind: clippedText()
      .optional()
      .meta({
        description: `Span kind (alias \`span_kind\`): ${SPAN_KINDS.join(', ')}, matched case-insensitively; any other string is stored as \`internal\`, the kind as sent staying in \`context.kind\`.`,
      }),
    started_at: dateTime().optional(),
    ended_at: dateTime().optional(),
    context: eventContextSchema.optional(),
    event_id: eventId().optional(),
  })
  .meta({
    id: 'tis.Event',
    description:
      'A telemetry event (section 2.1); unknown properties are kept. Strings over their limit are cut to it and end in `…[truncated]`.',
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

/** `checked_at` (logister-js) is an alias of `occurred_at` on check_in events. */
const CHECK_IN_TIME_KEYS: KeySpec = {
  known: new Set(['occurred_at']),
  aliases: { checked_at: 'occurred_at' },
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
  let input = canonicalizeKeys(unwrapped.value, EVENT_KEYS)
  if (input['event_type'] === 'check_in') input = canonicalizeKeys(input, CHECK_IN_TIME_KEYS)
  if (isPlainObject(input['context'])) {
    input['context'] = canonicalizeContext(input['context'], input['event_type'])
  }

  const parsed = eventSchema.safeParse(input)
  const problems = crossFieldProblems(input)
  if (!parsed.success) problems.push(...formatIssues(parsed.error.issues))
  const rules = checkContextRules(input, isPlainObject(input['context']) ? input['context'] : {})
  problems.push(...rules.problems)
  if (problems.length > 0 || !parsed.success) {
    return unprocessable(renderProblems(problems, EVENT_FIELDS))
  }
  return success(finish(parsed.data, { ...parsed.data.context, ...rules.values }, options))
}

/**
 * The accepted event: a trace id found only in a nested context object lifted to `trace_id`,
 * the convenience fields copied into `context` (the kind as sent), the stored span kind, and
 * `occurred_at` defaulted.
 */
function finish(
  parsed: z.output<typeof eventSchema>,
  validContext: JsonObject,
  options: ParseEventOptions,
): NormalizedEvent {
  const event: JsonObject = { ...parsed }
  if (event['trace_id'] === undefined && validContext['trace_id'] === undefined) {
    const lifted = nestedTraceId(validContext)
    if (lifted !== undefined) event['trace_id'] = lifted
  }
  const context = copyIntoContext(event, validContext)
  const kind = effectiveSpanField(event, context, 'kind')
  if (typeof kind === 'string') event['kind'] = storedSpanKind(kind)
  const startedAt =
    parsed.event_type === 'span' ? effectiveSpanField(event, context, 'started_at') : undefined
  event['occurred_at'] =
    parsed.occurred_at ??
    (typeof startedAt === 'string' ? startedAt : undefined) ??
    (options.now ?? new Date()).toISOString()
  event['context'] = context
  return event as NormalizedEvent
}
