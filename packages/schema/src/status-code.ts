import { isPlainObject } from './keys'

/** An HTTP status: an integer from 100 to 599, or a string of three digits that is one. */
function httpStatus(value: unknown): number | null {
  const n = typeof value === 'string' && /^\d{3}$/.test(value) ? Number(value) : value
  return typeof n === 'number' && Number.isInteger(n) && n >= 100 && n <= 599 ? n : null
}

/**
 * Where an event's context may carry its HTTP status code, in the order they are read:
 * `status_code`, `http_status`, `http.status_code` (logister-js's Express middleware), `status`
 * (the SDK's `captureTransaction` option), `response.status_code`, `response.status`.
 */
export const STATUS_CODE_LOCATIONS = [
  ['status_code'],
  ['http_status'],
  ['http', 'status_code'],
  ['status'],
  ['response', 'status_code'],
  ['response', 'status'],
] as const

/**
 * The HTTP status code of an event or span, from its `context`: the first of
 * {@link STATUS_CODE_LOCATIONS} that holds an HTTP status (an integer from 100 to 599, or a
 * three-digit string of one); `null` when none does. A transaction with a code of 500 or more
 * counts as an error.
 */
export function statusCodeOf(context: Readonly<Record<string, unknown>>): number | null {
  for (const [first, second] of STATUS_CODE_LOCATIONS) {
    const value = context[first]
    const code = httpStatus(
      second === undefined ? value : isPlainObject(value) ? value[second] : undefined,
    )
    if (code !== null) return code
  }
  return null
}
