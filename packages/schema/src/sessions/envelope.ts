import { isPlainObject } from '../keys'
import { jsonDepth, LIMITS } from '../limits'
import { badRequest, type ParseResult, success, unprocessable } from '../result'
import { readSessionAggregate, readSessionUpdate, type SessionRecord } from './session'

/** The root keys of `POST /api/v1/sessions`: one update, or an aggregate. */
export const SESSION_ENVELOPE_KEYS = ['session', 'sessions'] as const

/**
 * Parses the body of `POST /api/v1/sessions`: `{"session": {…}}` (one update, Sentry's
 * `session` item) or `{"sessions": {…}}` (an aggregate, Sentry's `sessions` item), either key
 * also in upper case. A body without either is a 400 naming both; one that fails validation a
 * 422 listing every problem.
 */
export function parseSessionEnvelope(body: unknown, now: Date): ParseResult<SessionRecord> {
  const missing = 'param is missing or the value is empty: session (or sessions)'
  if (!isPlainObject(body)) return badRequest(`${missing} (the request body must be a JSON object)`)
  const keys = Object.keys(body)
  const key = keys.find((k) =>
    (SESSION_ENVELOPE_KEYS as readonly string[]).includes(k.toLowerCase()),
  )
  const payload = key === undefined ? undefined : body[key]
  if (key === undefined || !isPlainObject(payload) || Object.keys(payload).length === 0) {
    return badRequest(missing)
  }
  const others = keys.filter((k) => k !== key)
  if (others.length > 0) {
    return unprocessable(
      others.map((k) => `${k} is not a permitted root key (send one of session or sessions)`),
    )
  }
  if (jsonDepth(body) > LIMITS.maxDepth) {
    return unprocessable([`${key} is nested too deeply (maximum is ${LIMITS.maxDepth} levels)`])
  }
  const read =
    key.toLowerCase() === 'session'
      ? readSessionUpdate(payload, now)
      : readSessionAggregate(payload, now)
  return read.ok ? success(read.value) : unprocessable(read.errors)
}
