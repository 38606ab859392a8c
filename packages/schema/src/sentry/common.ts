import { isPlainObject, type JsonObject } from '../keys'
import { LIMITS } from '../limits'

// Small readers shared by the mappings of Sentry's items to tis's native envelopes. Sentry's
// payloads come from SDKs in many languages and versions: every reader tolerates absent and
// mistyped values (they are left out, never an error), so an SDK is never refused for a field
// tis does not need.

/** A string with some text, else `undefined`. */
export const str = (v: unknown): string | undefined =>
  typeof v === 'string' && v !== '' ? v : undefined

/** A finite number, else `undefined`. */
export const num = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isFinite(v) ? v : undefined

/** A plain object, else `undefined`. */
export const obj = (v: unknown): JsonObject | undefined => (isPlainObject(v) ? v : undefined)

/** An array, else an empty one. */
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : [])

/**
 * A Sentry timestamp as RFC 3339: seconds since the epoch (a float, as SDKs send) or an RFC
 * 3339 string. `undefined` when neither.
 */
export function isoOf(v: unknown): string | undefined {
  if (typeof v === 'number' && Number.isFinite(v) && v >= 0 && v < 253_402_300_800) {
    return new Date(Math.round(v * 1000)).toISOString()
  }
  if (typeof v === 'string' && v !== '') {
    // Sentry's SDKs send UTC without a zone designator too ("2026-11-26T14:00:00.123456").
    const withZone = /[zZ]|[+-]\d\d:?\d\d$/.test(v) ? v : `${v}Z`
    const ms = Date.parse(withZone)
    return Number.isNaN(ms) ? undefined : new Date(ms).toISOString()
  }
  return undefined
}

/** Seconds since the epoch of a Sentry timestamp, else `undefined`. */
export function secondsOf(v: unknown): number | undefined {
  const iso = isoOf(v)
  return iso === undefined ? undefined : Date.parse(iso) / 1000
}

/** Sentry's 32-hex event id as a UUID (8-4-4-4-12), else `undefined`. */
export function uuidOfEventId(v: unknown): string | undefined {
  if (typeof v !== 'string') return undefined
  const hex = v.replaceAll('-', '').toLowerCase()
  if (!/^[0-9a-f]{32}$/.test(hex)) return undefined
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

/**
 * Sentry's `tags` (an object, or an array of `[key, value]` pairs) as tis's `context.tags`:
 * string values, at most {@link LIMITS.maxTags}.
 */
export function tagsOf(v: unknown): Record<string, string> | undefined {
  const pairs: Array<[string, unknown]> = Array.isArray(v)
    ? v.filter((p): p is [string, unknown] => Array.isArray(p) && typeof p[0] === 'string')
    : Object.entries(obj(v) ?? {})
  const tags: Record<string, string> = {}
  for (const [key, value] of pairs.slice(0, LIMITS.maxTags)) {
    if (value === null || value === undefined || key === '') continue
    tags[key] = typeof value === 'string' ? value : JSON.stringify(value)
  }
  return Object.keys(tags).length > 0 ? tags : undefined
}

/** Sentry's levels as tis's: `warning` stays, `log` is `info`, anything else as given. */
export function levelOf(v: unknown, fallback: string): string {
  const level = str(v)?.toLowerCase()
  if (!level) return fallback
  return level === 'log' ? 'info' : level
}

/** Copies the entries whose value is not `undefined`. */
export function defined(o: Record<string, unknown>): JsonObject {
  // A plain loop, not `Object.fromEntries(Object.entries(…))`: that made most of the mapping's
  // time (a dictionary-mode object per call, slower again for every later read and copy).
  const copy: JsonObject = {}
  for (const key of Object.keys(o)) {
    const value = o[key]
    if (value !== undefined) copy[key] = value
  }
  return copy
}
