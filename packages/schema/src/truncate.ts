import * as z from 'zod'
import { boundedInteger, type IntegerBounds, mustBe } from './formats'
import { LIMITS } from './limits'

/**
 * Appended to a string the normaliser cut to its limit, inside the limit: a reader sees that
 * the value is not whole, and the cut value is exactly as long as the limit (or one unit shorter,
 * when the cut would split a surrogate pair).
 */
export const TRUNCATION_MARKER = '…[truncated]'

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff

/**
 * `value` cut to at most `max` UTF-16 code units, ending in {@link TRUNCATION_MARKER}; unchanged
 * when it already fits. A surrogate pair is never split: an emoji at the cut is dropped whole.
 */
export function truncateText(value: string, max: number): string {
  if (value.length <= max) return value
  if (max <= TRUNCATION_MARKER.length) return value.slice(0, max)
  let end = max - TRUNCATION_MARKER.length
  if (isHighSurrogate(value.charCodeAt(end - 1))) end -= 1
  return value.slice(0, end) + TRUNCATION_MARKER
}

/**
 * A string field of an event or compact check-in: any length is accepted and a value over `max`
 * is cut to it ({@link truncateText}), so a long label never costs the whole record.
 */
export const clippedText = (max: number = LIMITS.maxStringLength) =>
  z.string({ error: mustBe('a string') }).overwrite((s) => truncateText(s, max))

/** A required {@link clippedText}: present and not only white space. */
export const requiredClippedText = (max: number = LIMITS.maxStringLength) =>
  clippedText(max).refine((s) => s.trim().length > 0, { error: "can't be blank" })

/**
 * A string (cut like {@link clippedText}) or an integer within `bounds`: `user_id` and `status`
 * of events.
 */
export const clippedStringOrInteger = (bounds: IntegerBounds = {}) =>
  z
    .union([z.string(), boundedInteger(bounds)], { error: 'must be a string or an integer' })
    .overwrite((v) => (typeof v === 'string' ? truncateText(v, LIMITS.maxStringLength) : v))
