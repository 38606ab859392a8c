import * as z from 'zod'
import { LIMITS } from './limits'

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
  if (!isRfc3339Shape(value)) return false
  const instant = parseDateTime(value).getTime()
  return instant >= FIRST_INSTANT && instant <= LAST_INSTANT
}

function isRfc3339Shape(value: string): boolean {
  const m = RFC3339.exec(value)
  if (!m) return false
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as number[]
  if (year! < 1) return false
  const daysInMonth = new Date(Date.UTC(2000, month!, 0)).getUTCDate()
  // Month lengths from a leap year (Date.UTC maps years below 100 to the 1900s), then February.
  if (month! < 1 || month! > 12 || day! < 1 || day! > daysInMonth) return false
  if (month === 2 && day === 29 && !isLeapYear(year!)) return false
  if (hour! > 23 || minute! > 59 || second! > 60) return false
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

/** RFC 3339 date-time string. */
export const dateTime = () =>
  z
    .string({ error: mustBe('a string') })
    .refine(isRfc3339DateTime, {
      error: 'must be an RFC 3339 date-time (for example 2026-01-31T12:00:00Z)',
    })
    .meta({ format: 'date-time' })

/** A number ≥ 0 (durations). */
export const nonNegativeNumber = () =>
  z.number({ error: mustBe('a number') }).min(0, { error: 'must be greater than or equal to 0' })

/** An integer ≥ `min` (and ≤ `max`, a storage bound, when given). */
export const integerAtLeast = (min: number, max: number = Number.MAX_SAFE_INTEGER) =>
  z
    .int({ error: mustBe('an integer') })
    .min(min, { error: `must be greater than or equal to ${min}` })
    .max(max, { error: `must be less than or equal to ${max}` })

/** `expected_interval_seconds`: at least 1, at most what a 32-bit column holds (about 68 years). */
export const intervalSeconds = () => integerAtLeast(1, LIMITS.maxIntervalSeconds)

/** A string or an integer (user ids, HTTP statuses, pull request numbers). */
export const stringOrInteger = () =>
  z
    .union([z.string(), z.int()], { error: 'must be a string or an integer' })
    .refine((v) => typeof v !== 'string' || v.length <= LIMITS.maxStringLength, {
      error: `is too long (maximum is ${LIMITS.maxStringLength} characters)`,
    })

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

/** An absolute URI. */
export const uri = () =>
  text(LIMITS.maxUrlLength)
    .refine(isAbsoluteUri, { error: 'must be an absolute URI' })
    .meta({ format: 'uri' })
