import { isPlainObject, type JsonObject } from '../keys'

// Sentry's envelope format (https://develop.sentry.dev/sdk/data-model/envelopes/): a JSON
// header line, then items, each a JSON header line and a payload. A payload is `length` bytes
// when the item header says so (followed by a newline or the end), else it runs to the next
// newline. What Sentry's SDKs send to `POST /api/<project>/envelope/`.

/** One item of an envelope: its header (with a string `type`) and its payload bytes. */
export interface SentryEnvelopeItem {
  readonly type: string
  readonly header: JsonObject
  readonly payload: Uint8Array
}

/** A parsed envelope. */
export interface SentryEnvelope {
  readonly header: JsonObject
  readonly items: readonly SentryEnvelopeItem[]
}

/**
 * The outcome of {@link parseSentryEnvelope}: the envelope, or why it is malformed (with the
 * envelope header when it was read before the problem: its `dsn` still names the key).
 */
export type SentryEnvelopeResult =
  | { readonly ok: true; readonly envelope: SentryEnvelope }
  | { readonly ok: false; readonly message: string; readonly header?: JsonObject }

/** Most items one envelope may carry (Sentry's SDKs send a handful). */
export const SENTRY_ENVELOPE_MAX_ITEMS = 1000

const NEWLINE = 0x0a
const decoder = new TextDecoder('utf-8', { fatal: true })

/** Parses a JSON object from bytes; `null` when they are not UTF-8 JSON of an object. */
export function jsonObjectOf(bytes: Uint8Array): JsonObject | null {
  try {
    const value: unknown = JSON.parse(decoder.decode(bytes))
    return isPlainObject(value) ? value : null
  } catch {
    return null
  }
}

/**
 * Splits an envelope into its header and items. Malformed (a message naming the problem): an
 * empty body, a header that is not a JSON object, an item header without a string `type`, a
 * `length` that is not a non-negative integer or runs past the end, a payload not followed by
 * a newline, more than {@link SENTRY_ENVELOPE_MAX_ITEMS} items. Blank lines between items are
 * skipped. Payloads are not looked into.
 */
export function parseSentryEnvelope(body: Uint8Array): SentryEnvelopeResult {
  let pos = 0
  const line = () => {
    const end = body.indexOf(NEWLINE, pos)
    const stop = end === -1 ? body.length : end
    const bytes = body.subarray(pos, stop)
    pos = end === -1 ? body.length : end + 1
    return bytes
  }
  if (body.length === 0) return { ok: false, message: 'the envelope is empty' }
  const header = jsonObjectOf(line())
  if (!header) {
    return { ok: false, message: 'the envelope header (its first line) is not a JSON object' }
  }
  const fail = (message: string): SentryEnvelopeResult => ({ ok: false, message, header })
  const items: SentryEnvelopeItem[] = []
  while (pos < body.length) {
    const headerBytes = line()
    if (headerBytes.length === 0 || (headerBytes.length === 1 && headerBytes[0] === 0x0d)) continue
    const n = items.length + 1
    if (n > SENTRY_ENVELOPE_MAX_ITEMS) {
      return fail(`the envelope has more than ${SENTRY_ENVELOPE_MAX_ITEMS} items`)
    }
    const itemHeader = jsonObjectOf(headerBytes)
    const type = itemHeader?.['type']
    if (!itemHeader || typeof type !== 'string' || type === '') {
      return fail(`item ${n}: its header is not a JSON object with a string "type"`)
    }
    const length = itemHeader['length']
    let payload: Uint8Array
    if (length === undefined || length === null) {
      payload = line()
    } else {
      if (typeof length !== 'number' || !Number.isSafeInteger(length) || length < 0) {
        return fail(`item ${n} (${type}): "length" must be a non-negative integer`)
      }
      if (pos + length > body.length) {
        return fail(
          `item ${n} (${type}): "length" is ${length} bytes but only ${body.length - pos} remain`,
        )
      }
      payload = body.subarray(pos, pos + length)
      pos += length
      if (pos < body.length) {
        if (body[pos] !== NEWLINE) {
          return fail(
            `item ${n} (${type}): its ${length}-byte payload is not followed by a newline`,
          )
        }
        pos += 1
      }
    }
    items.push({ type, header: itemHeader, payload })
  }
  return { ok: true, envelope: { header, items } }
}
