import type * as z from 'zod'
import type { EventType } from './enums'
import { dateTime, intervalSeconds, STATUS_BOUNDS } from './formats'
import type { JsonObject, KeySpec } from './keys'
import { LIMITS } from './limits'
import { formatIssues, type Problem } from './messages'
import { clippedStringOrInteger, clippedText } from './truncate'

/**
 * When a context property that is not validated on every event is validated: on the event types
 * that use it, and (for the fields an event also has at its top level) only when the top level
 * does not set it, since the engine then reads the context value. Everywhere else the property
 * is user context, kept exactly as sent (docs/validation.md, "Which context properties are
 * validated").
 */
export interface ContextRule {
  readonly schema: z.ZodType
  /** The event types that use the property. */
  readonly types: readonly EventType[]
  /** Validated only when the event has no top-level value of the same name. */
  readonly unlessTopLevel: boolean
  /** Documented alias (snake_case) of the property, renamed on these event types only. */
  readonly alias?: string
  readonly description: string
}

const checkIn = (schema: z.ZodType, description: string, alias?: string): ContextRule => ({
  schema,
  types: ['check_in'],
  unlessTopLevel: false,
  ...(alias ? { alias } : {}),
  description: `${description} Validated on check_in events only; elsewhere user context.`,
})
const span = (schema: z.ZodType, description: string, alias?: string): ContextRule => ({
  schema,
  types: ['span'],
  unlessTopLevel: true,
  ...(alias ? { alias } : {}),
  description: `${description} Validated on span events without a top-level value only; elsewhere user context.`,
})
const http = (schema: z.ZodType, description: string, unlessTopLevel: boolean): ContextRule => ({
  schema,
  types: ['transaction', 'span'],
  unlessTopLevel,
  description: `${description} Validated on transaction and span events${unlessTopLevel ? ' without a top-level value' : ''} only; elsewhere user context.`,
})

/** The context properties validated only where they are used, by name. */
export const CONTEXT_RULES: Readonly<Record<string, ContextRule>> = {
  check_in_slug: checkIn(clippedText(), 'Monitor name (alias `monitor_slug`).', 'monitor_slug'),
  check_in_status: checkIn(clippedText(), 'Check-in status: `ok`, `error`, …'),
  expected_interval_seconds: checkIn(intervalSeconds(), 'Integer, at least 1.'),
  span_id: span(clippedText(), 'Span id.'),
  parent_span_id: span(clippedText(), 'Parent span id.'),
  kind: span(
    clippedText(),
    'Span kind (alias `span_kind`), as for the top-level `kind`.',
    'span_kind',
  ),
  started_at: span(dateTime(), 'RFC 3339 date-time.'),
  ended_at: span(dateTime(), 'RFC 3339 date-time.'),
  status: http(clippedStringOrInteger(STATUS_BOUNDS), 'Status (string or integer).', true),
  method: http(clippedText(), 'HTTP method.', false),
  url: http(clippedText(LIMITS.maxUrlLength), 'URL.', false),
}

const RULE_ENTRIES = Object.entries(CONTEXT_RULES)

/**
 * The documented context names of an event of `type`: `base` (the properties validated on every
 * event) plus the rules that apply to the type, with their aliases.
 */
export function contextKeySpec(base: KeySpec, type: unknown): KeySpec {
  const known = new Set(base.known)
  const aliases: Record<string, string> = { ...base.aliases }
  for (const [name, rule] of RULE_ENTRIES) {
    if (!rule.types.includes(type as EventType)) continue
    known.add(name)
    if (rule.alias) aliases[rule.alias] = name
  }
  return { known, aliases }
}

/**
 * Validates the {@link CONTEXT_RULES} properties of `context` that apply to `event`: their
 * normalised values (long strings cut) and the problems found, located under `context`.
 */
export function checkContextRules(
  event: JsonObject,
  context: JsonObject,
): { values: JsonObject; problems: Problem[] } {
  const values: JsonObject = {}
  const problems: Problem[] = []
  for (const [name, rule] of RULE_ENTRIES) {
    if (!rule.types.includes(event['event_type'] as EventType)) continue
    if (context[name] === undefined) continue
    if (rule.unlessTopLevel && event[name] !== undefined) continue
    const parsed = rule.schema.safeParse(context[name])
    if (parsed.success) values[name] = parsed.data
    else problems.push(...formatIssues(parsed.error.issues, ['context', name]))
  }
  return { values, problems }
}
