import { isPlainObject, type JsonObject } from './keys'
import { jsonDepth, LIMITS } from './limits'
import { badRequest, type ParseBadRequest, type ParseUnprocessable, unprocessable } from './result'

/** The root key that wraps each operation's body (section 2 of the interface). */
export const ENVELOPE_KEYS = {
  event: 'event',
  checkIn: 'check_in',
  deployment: 'deployment',
  mobileIngestToken: 'mobile_ingest_token',
} as const

/** One of the four envelope keys, in canonical lower case. */
export type EnvelopeKey = (typeof ENVELOPE_KEYS)[keyof typeof ENVELOPE_KEYS]

/** The 400 message for a missing or unusable envelope; the interface fixes its beginning. */
export const missingEnvelopeMessage = (key: string): string =>
  `param is missing or the value is empty: ${key}`

/**
 * Takes the envelope out of a parsed JSON body.
 *
 * - Body not a JSON object, envelope absent, `null`, `{}`, an array or a scalar: 400
 *   `param is missing or the value is empty: <key>`.
 * - Both spellings (`event` and `EVENT`) or any other root key: 422, since the envelope itself
 *   is usable and the request is otherwise well formed (documented in docs/validation.md).
 * - A body nested deeper than {@link LIMITS.maxDepth}: 422.
 */
export function unwrapEnvelope(
  body: unknown,
  key: EnvelopeKey | (string & {}),
): { ok: true; value: JsonObject } | ParseBadRequest | ParseUnprocessable {
  const upper = key.toUpperCase()
  if (!isPlainObject(body)) {
    return badRequest(`${missingEnvelopeMessage(key)} (the request body must be a JSON object)`)
  }
  const hasLower = Object.hasOwn(body, key)
  const hasUpper = Object.hasOwn(body, upper)
  const envelope = hasLower ? body[key] : body[upper]
  if (!isPlainObject(envelope) || Object.keys(envelope).length === 0) {
    return badRequest(missingEnvelopeMessage(key))
  }
  const errors: string[] = []
  if (hasLower && hasUpper) errors.push(`send either ${key} or ${upper} as the root key, not both`)
  for (const other of Object.keys(body)) {
    if (other !== key && other !== upper) {
      errors.push(`${other} is not a permitted root key (only ${key} is accepted)`)
    }
  }
  if (jsonDepth(body) > LIMITS.maxDepth) {
    errors.push(`${key} is nested too deeply (maximum is ${LIMITS.maxDepth} levels)`)
  }
  return errors.length > 0 ? unprocessable(errors) : { ok: true, value: envelope }
}
