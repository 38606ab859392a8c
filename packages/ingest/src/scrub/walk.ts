// The copy-on-write walk: every value below a record, with the key rules on object keys and the
// value rules on strings and numbers. An object or array is copied only when something under it
// changed; otherwise the input reference itself is returned.
import type { KeyClassifier } from './keys'
import { FILTERED, type ScrubRule } from './settings'
import type { Tally } from './tally'
import { scrubQueryString } from './urls'
import { scrubNumber, scrubString } from './values'

/** Objects and arrays nested deeper than this are kept as they are. */
export const MAX_SCRUB_DEPTH = 64

/** The state of one scrub. */
export interface Run {
  readonly classify: KeyClassifier
  readonly tally: Tally
  /** `scrubIpAddresses` (the classifier already turns IP keys into `ip` verdicts). */
  readonly scrubIp: boolean
}

/** A JSON object (not an array, nor a class instance such as a Date). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  const proto = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null
}

/** A value with the value rules applied to everything in it (`depth`: its nesting level). */
export function walkValue(value: unknown, depth: number, run: Run): unknown {
  switch (typeof value) {
    case 'string':
      return scrubString(value, run)
    case 'number':
      return scrubNumber(value, run)
    case 'object':
      if (value === null || depth > MAX_SCRUB_DEPTH) return value
      if (Array.isArray(value)) return walkArray(value, depth, run)
      return isRecord(value) ? walkObject(value, depth, run) : value
    default:
      return value
  }
}

function walkArray(items: readonly unknown[], depth: number, run: Run): readonly unknown[] {
  let out: unknown[] | undefined
  for (let i = 0; i < items.length; i++) {
    const item = items[i]
    const next = walkValue(item, depth + 1, run)
    if (next !== item) {
      out ??= items.slice()
      out[i] = next
    }
  }
  return out ?? items
}

function walkObject(
  object: Record<string, unknown>,
  depth: number,
  run: Run,
): Record<string, unknown> {
  let out: Record<string, unknown> | undefined
  // `for…in` rather than `Object.keys`: no array per object. A JSON object has no enumerable
  // inherited keys (isRecord admits only plain and null-prototype objects).
  for (const key in object) {
    const value = object[key]
    const next = walkEntry(key, value, depth + 1, run)
    if (next !== value) {
      out ??= { ...object }
      // The copy has `key` as an own property (even `__proto__`), so this never sets a prototype.
      out[key] = next
    }
  }
  return out ?? object
}

/** The value of `key` in an object, after the key rules and then the value rules. */
export function walkEntry(key: string, value: unknown, depth: number, run: Run): unknown {
  if (value === undefined || value === null) return value
  const { verdict } = run.classify(key)
  switch (verdict) {
    case 'safe':
    case 'identifier':
      return value
    case 'ip':
      return filterWhole(value, 'ip_address', run.tally)
    case 'sensitive':
      return filterWhole(value, 'sensitive_key', run.tally)
    case 'query':
      return typeof value === 'string'
        ? scrubString(scrubQueryString(value, run), run)
        : walkValue(value, depth, run)
    case 'plain':
      return walkValue(value, depth, run)
  }
}

/** The marker in place of the whole value; an empty string or the marker itself is kept. */
function filterWhole(value: unknown, rule: ScrubRule, tally: Tally): unknown {
  if (value === '' || value === FILTERED) return value
  tally.add(rule)
  return FILTERED
}
