import * as z from 'zod'
import { ENVELOPE_KEYS, unwrapEnvelope } from './envelope'
import { dateTime, durationMs, eventId, intervalSeconds } from './formats'
import { canonicalizeKeys, type KeySpec } from './keys'
import { formatIssues, renderProblems } from './messages'
import { type KnownFields, type ParseResult, success, unprocessable } from './result'
import { clippedText, requiredClippedText } from './truncate'

/** Default `expected_interval_seconds` of a check-in (section 2.3). */
export const DEFAULT_CHECK_IN_INTERVAL_SECONDS = 300

/** The compact `check_in` object of `POST /api/v1/check_ins` (section 2.3). */
export const checkInSchema = z
  .looseObject({
    slug: requiredClippedText().meta({ description: 'Monitor name.' }),
    status: clippedText().optional().meta({
      description: '`ok` keeps the monitor healthy; `error` marks the latest run failed.',
    }),
    occurred_at: dateTime()
      .optional()
      .meta({ description: 'Defaults to the receive time; alias `checked_at` (logister-js).' }),
    environment: clippedText().optional().meta({
      description: "Separates monitor streams; defaults to the service's own environment.",
    }),
    release: clippedText().optional(),
    expected_interval_seconds: intervalSeconds()
      .optional()
      .meta({ description: 'How often a report is expected; default 300.' }),
    duration_ms: durationMs().optional(),
    trace_id: clippedText().optional(),
    request_id: clippedText().optional(),
    event_id: eventId().optional(),
  })
  .meta({
    id: 'tis.CheckIn',
    description:
      'A cron check-in (section 2.3); unknown properties are kept. Strings over their limit are cut to it and end in `…[truncated]`.',
  })

const CHECK_IN_FIELDS = Object.keys(checkInSchema.shape)
const CHECK_IN_KEYS: KeySpec = {
  known: new Set(CHECK_IN_FIELDS),
  aliases: { uuid: 'event_id', checked_at: 'occurred_at' },
}

/**
 * An accepted check-in with the defaults of section 2.3 applied; "blank" is `null`.
 */
export type NormalizedCheckIn = Omit<
  KnownFields<typeof checkInSchema.shape>,
  | 'status'
  | 'occurred_at'
  | 'environment'
  | 'release'
  | 'expected_interval_seconds'
  | 'duration_ms'
  | 'trace_id'
  | 'request_id'
> & {
  status: string
  occurred_at: string
  environment: string
  release: string | null
  expected_interval_seconds: number
  duration_ms: number | null
  trace_id: string | null
  request_id: string | null
} & Record<string, unknown>

/** Options of {@link parseCheckInEnvelope}. */
export interface ParseCheckInOptions {
  /**
   * The service's own environment, used when the check-in names none (`SERVICE_ENV`).
   * @default 'production'
   */
  readonly serviceEnvironment?: string
  /**
   * The receive time, used when the check-in has no `occurred_at`.
   * @default new Date()
   */
  readonly now?: Date
}

/**
 * Parses the body of `POST /api/v1/check_ins`: unwraps `check_in`/`CHECK_IN`, renames camelCase
 * and upper-case fields (and `checked_at` to `occurred_at`), validates section 2.3, cuts long
 * strings and applies its defaults.
 */
export function parseCheckInEnvelope(
  body: unknown,
  options: ParseCheckInOptions = {},
): ParseResult<NormalizedCheckIn> {
  const unwrapped = unwrapEnvelope(body, ENVELOPE_KEYS.checkIn)
  if (!unwrapped.ok) return unwrapped
  const parsed = checkInSchema.safeParse(canonicalizeKeys(unwrapped.value, CHECK_IN_KEYS))
  if (!parsed.success) {
    return unprocessable(renderProblems(formatIssues(parsed.error.issues), CHECK_IN_FIELDS))
  }
  const c = parsed.data
  return success({
    ...c,
    status: c.status ?? 'ok',
    occurred_at: c.occurred_at ?? (options.now ?? new Date()).toISOString(),
    environment: c.environment ?? options.serviceEnvironment ?? 'production',
    release: c.release ?? null,
    expected_interval_seconds: c.expected_interval_seconds ?? DEFAULT_CHECK_IN_INTERVAL_SECONDS,
    duration_ms: c.duration_ms ?? null,
    trace_id: c.trace_id ?? null,
    request_id: c.request_id ?? null,
  })
}
