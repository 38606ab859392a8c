import * as z from 'zod'
import { LIMITS, NUMERIC_BOUNDS } from './limits'

const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|([+-])(\d{2}):(\d{2}))$/

/** The first and last instants a date-time may name: years 0001–9999 in UTC. */
const FIRST_INSTANT = Date.parse('0001-01-01T00:00:00.000Z')
const LAST_INSTANT = Date.parse('9999-12-31T23:59:59.999Z')

/**
 * True for an RFC 3339 `date-time` with a real calendar date and a time offset, in the range a
 * database timestamp holds: years 0001–9999 and offsets up to ±15:59 (real offsets run from
 * -12:00 to +14:00), and an instant that is itself within years 0001–9999 in UTC (so neither
 * `0001-01-01T00:00:00+01:00` nor `9999-12-31T23:59:60Z` is valid). A leap second (`:60`) is
 * accepted.
 */
export function isRfc3339DateTime(value: string): boolean {
  return !Number.isNaN(instantOf(value))
}

// The last string looked at and its instant: a schema checks one value twice in a row.
let lastValue: string | undefined
let lastInstant = Number.NaN

/** The instant of a valid RFC 3339 date-time (see {@link isRfc3339DateTime}), else `NaN`. */
function instantOf(value: string): number {
  if (value === lastValue) return lastInstant
  const t = isRfc3339Shape(value) ? parseDateTime(value).getTime() : Number.NaN
  lastValue = value
  lastInstant = t >= FIRST_INSTANT && t <= LAST_INSTANT ? t : Number.NaN
  return lastInstant
}

/** Days of each month in a leap year (a 29 February is checked against its year). */
const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

function isRfc3339Shape(value: string): boolean {
  const m = RFC3339.exec(value)
  if (!m) return false
  const year = Number(m[1])
  const month = Number(m[2])
  const day = Number(m[3])
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > DAYS_IN_MONTH[month - 1]!) {
    return false
  }
  if (month === 2 && day === 29 && !isLeapYear(year)) return false
  if (Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6]) > 60) return false
  return m[9] === undefined || (Number(m[10]) <= 15 && Number(m[11]) <= 59)
}

const isLeapYear = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0

/**
 * The instant of a valid RFC 3339 date-time. A leap second (`23:59:60`) is the first instant of
 * the next minute, as PostgreSQL reads it; JavaScript's own parser rejects it.
 */
export function parseDateTime(value: string): Date {
  const direct = new Date(value)
  if (!Number.isNaN(direct.getTime())) return direct
  const leap = value.replace(/:60(?=[.,Zz+-]|$)/, ':59')
  return new Date(new Date(leap).getTime() + 1000)
}

/**
 * True for an `http:` or `https:` URL with a host that the WHATWG URL parser accepts: the only
 * links tis stores and returns (`javascript:`, `data:`, `file:` and other schemes are not links a
 * reader of the API may follow).
 */
export function isHttpUrl(value: string): boolean {
  if (!/^https?:\/\//i.test(value) || /\s/.test(value)) return false
  try {
    const url = new URL(value)
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== ''
  } catch {
    return false
  }
}

/** True for an absolute URI (a scheme followed by `:`) that the WHATWG URL parser accepts. */
export function isAbsoluteUri(value: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:/.test(value) || /\s/.test(value)) return false
  try {
    new URL(value)
    return true
  } catch {
    return false
  }
}

const REPOSITORY_URL =
  /^(?:(?:https?|ssh|git):\/\/(?:[^@/]+@)?[^/]+\/|git@[^:]+:|github\.com\/)([^/]+\/[^/]+?)(?:\.git)?\/?$/

/**
 * Reduces the ways people write a repository to `owner/name`: `https://github.com/o/n(.git)`,
 * `git@github.com:o/n.git`, `github.com/o/n`; anything else is returned unchanged.
 */
export function normalizeRepository(value: string): string {
  const trimmed = value.trim()
  return REPOSITORY_URL.exec(trimmed)?.[1] ?? trimmed
}

/**
 * The message of a type error: "can't be blank" (Rails-style) when the value is absent, else
 * `must be <what>`.
 * @internal
 */
export const mustBe = (what: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? "can't be blank" : `must be ${what}`

/** A string field with a documented meaning, bounded in length. */
export const text = (max: number = LIMITS.maxStringLength) =>
  z
    .string({ error: mustBe('a string') })
    .max(max, { error: `is too long (maximum is ${max} characters)` })

/** A string that must be present and not only white space. */
export const requiredText = (max: number = LIMITS.maxStringLength) =>
  z
    .string({ error: mustBe('a string') })
    .max(max, { error: `is too long (maximum is ${max} characters)` })
    .refine((s) => s.trim().length > 0, { error: "can't be blank" })

const NUL_ERROR = 'must not contain a NUL character'
const noNul = (s: string) => !s.includes('\u0000')

/**
 * {@link text} for values stored in text columns (names, emails, bindings): PostgreSQL text
 * cannot hold NUL, so one is a 422 rather than a failed write. (Events keep NUL: their strings
 * live in JSON.)
 */
export const columnText = (max: number = LIMITS.maxStringLength) =>
  text(max).refine(noNul, { error: NUL_ERROR })

/** {@link requiredText} for values stored in text columns; see {@link columnText}. */
export const requiredColumnText = (max: number = LIMITS.maxStringLength) =>
  requiredText(max).refine(noNul, { error: NUL_ERROR })

const FIRST_STORED = Date.parse(NUMERIC_BOUNDS.firstInstant)
const END_STORED = Date.parse(NUMERIC_BOUNDS.endInstant)
const WINDOW = `on or after ${NUMERIC_BOUNDS.firstInstant} and before ${NUMERIC_BOUNDS.endInstant}`

/**
 * True for a valid RFC 3339 date-time whose instant a record may be stored at: from
 * {@link NUMERIC_BOUNDS.firstInstant} up to, not including, {@link NUMERIC_BOUNDS.endInstant}.
 */
export function isStorableDateTime(value: string): boolean {
  const instant = instantOf(value)
  return instant >= FIRST_STORED && instant < END_STORED
}

/** An RFC 3339 date-time string within the stored window (see {@link isStorableDateTime}). */
export const dateTime = () =>
  z
    .string({ error: mustBe('a string') })
    .refine(isRfc3339DateTime, {
      error: 'must be an RFC 3339 date-time (for example 2026-01-31T12:00:00Z)',
      abort: true,
    })
    .refine(isStorableDateTime, { error: `must be ${WINDOW}` })
    .meta({ format: 'date-time', description: `An instant ${WINDOW}.` })

// A number that is absent reads "can't be blank"; `1e999` (parsed as Infinity) is not finite.
const finiteNumber = (issue: { input?: unknown }) =>
  issue.input === undefined
    ? "can't be blank"
    : typeof issue.input === 'number'
      ? 'must be a finite number'
      : 'must be a number'

/** A finite number from `min` to `max`; `label` is how `max` is spelled in messages. */
const boundedNumber = (min: number, max: number, label = String(max)) =>
  z
    .number({ error: finiteNumber })
    .min(min, { error: `must be greater than or equal to ${min === -max ? `-${label}` : min}` })
    .max(max, { error: `must be less than or equal to ${label}` })

/** A duration in milliseconds: 0 to {@link NUMERIC_BOUNDS.maxDurationMs} (365 days). */
export const durationMs = () =>
  boundedNumber(0, NUMERIC_BOUNDS.maxDurationMs, `${NUMERIC_BOUNDS.maxDurationMs} (365 days)`)

/** A metric's value: finite, of magnitude at most {@link NUMERIC_BOUNDS.maxMetricMagnitude}. */
export const metricValue = () =>
  boundedNumber(-NUMERIC_BOUNDS.maxMetricMagnitude, NUMERIC_BOUNDS.maxMetricMagnitude, '1e20')

/** An integer ≥ `min` (and ≤ `max`, a storage bound, when given). */
export const integerAtLeast = (min: number, max: number = Number.MAX_SAFE_INTEGER) =>
  z
    .int({ error: mustBe('an integer') })
    .min(min, { error: `must be greater than or equal to ${min}` })
    .max(max, { error: `must be less than or equal to ${max}` })

/** `expected_interval_seconds`: at least 1, at most what a 32-bit column holds (about 68 years). */
export const intervalSeconds = () => integerAtLeast(1, LIMITS.maxIntervalSeconds)

/** Bounds of the integer form of {@link stringOrInteger}. */
export interface IntegerBounds {
  /** @default -Number.MAX_SAFE_INTEGER */
  readonly min?: number
  /** @default Number.MAX_SAFE_INTEGER */
  readonly max?: number
  /** Appended to a bound's message, e.g. `(send larger ids as a string)`. */
  readonly hint?: string
}

/** An integer within `bounds`; an integer past the safe range names the bound it crosses. */
export const boundedInteger = (bounds: IntegerBounds = {}) => {
  const min = bounds.min ?? -Number.MAX_SAFE_INTEGER
  const max = bounds.max ?? Number.MAX_SAFE_INTEGER
  const hint = bounds.hint === undefined ? '' : ` ${bounds.hint}`
  return z
    .int({
      // Integers beyond the safe range fail zod's type check: name the bound they cross.
      error: ({ input }) =>
        typeof input === 'number' && Number.isInteger(input)
          ? `must be ${input < 0 ? `greater than or equal to ${min}` : `less than or equal to ${max}`}${hint}`
          : undefined,
    })
    .min(min, { error: `must be greater than or equal to ${min}${hint}` })
    .max(max, { error: `must be less than or equal to ${max}${hint}` })
}

/** A string or an integer within `bounds` (user ids, HTTP statuses, pull request numbers). */
export const stringOrInteger = (bounds: IntegerBounds = {}) =>
  z
    .union([z.string(), boundedInteger(bounds)], { error: 'must be a string or an integer' })
    .refine((v) => typeof v !== 'string' || v.length <= LIMITS.maxStringLength, {
      error: `is too long (maximum is ${LIMITS.maxStringLength} characters)`,
    })

/** The bounds of an integer `user_id`: the safe integers (larger ids are sent as strings). */
export const USER_ID_BOUNDS: IntegerBounds = {
  min: -NUMERIC_BOUNDS.maxUserIdInteger,
  max: NUMERIC_BOUNDS.maxUserIdInteger,
  hint: '(send larger ids as a string)',
}

/** The bounds of an integer `status`: up to three digits. */
export const STATUS_BOUNDS: IntegerBounds = { min: 0, max: NUMERIC_BOUNDS.maxStatusInteger }

/** `user_id`: a string or a safe integer (larger ids are sent as strings). */
export const userId = () => stringOrInteger(USER_ID_BOUNDS)

/** `status` of an event or its context: a string or an integer of up to three digits. */
export const statusValue = () => stringOrInteger(STATUS_BOUNDS)

/** `pull_request_number`: a string or an integer from 1 to 2,147,483,647. */
export const pullRequestNumber = () =>
  stringOrInteger({ min: 1, max: NUMERIC_BOUNDS.maxPullRequestNumber })

/** One of the listed strings. */
export const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, {
    error: (issue) =>
      issue.input === undefined
        ? "can't be blank"
        : `is not included in the list (${values.join(', ')})`,
  })

/** A JSON object with any keys. */
export const freeObject = () =>
  z.record(z.string(), z.unknown(), { error: 'must be an object' }).meta({ type: 'object' })

/** Repository full name in `owner/name` form; common URL forms are accepted and reduced. */
export const repository = () =>
  text()
    .overwrite(normalizeRepository)
    .regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/, {
      error: 'must be a repository full name in owner/name form',
    })

/** A commit sha of 7 to 40 hexadecimal characters, stored lower-case. */
export const commitSha = () =>
  z
    .string({ error: mustBe('a string') })
    .regex(/^[0-9a-fA-F]{7,40}$/, { error: 'is invalid (must be 7 to 40 hexadecimal characters)' })
    .overwrite((s) => s.toLowerCase())

/** A client-generated record id: a UUID (any version), stored lower-case. */
export const eventId = () =>
  z
    .string({ error: mustBe('a string') })
    .regex(/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/, {
      error: 'is invalid (must be a UUID such as 0190b1c2-3d4e-7f80-9a1b-2c3d4e5f6071)',
    })
    .overwrite((s) => s.toLowerCase())
    .meta({
      format: 'uuid',
      description:
        'Client-generated id (alias `uuid`): the first acceptance stores it as the record id; a repeat within the project answers 200 with `duplicate: true` and changes nothing.',
    })

/** A link: an absolute `http:` or `https:` URL (see {@link isHttpUrl}). */
export const httpUrl = () =>
  text(LIMITS.maxUrlLength)
    .refine(isHttpUrl, { error: 'must be an http or https URL' })
    .meta({ format: 'uri', pattern: '^[Hh][Tt][Tt][Pp][Ss]?://' })
