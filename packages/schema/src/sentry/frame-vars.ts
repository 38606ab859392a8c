import { isPlainObject, type JsonObject } from '../keys'
import { truncateText } from '../truncate'

// A stack frame's local variables (Sentry's `vars`, which sentry-python sends for every frame),
// kept bounded: the data scrubber filters them like any other value before they are stored.

/** The most variables kept of one frame. */
export const FRAME_VARS_MAX_KEYS = 50
/** The most items or entries kept of an array or object inside a variable. */
export const FRAME_VARS_MAX_ITEMS = 20
/** Nesting kept inside a variable (deeper values are shown as `"…"`). */
export const FRAME_VARS_MAX_DEPTH = 4
/** The longest string kept of a variable (cut like every other string). */
export const FRAME_VARS_MAX_STRING = 512

function bounded(v: unknown, depth: number): unknown {
  if (typeof v === 'string') return truncateText(v, FRAME_VARS_MAX_STRING)
  if (v === null || typeof v !== 'object') {
    return typeof v === 'number' && !Number.isFinite(v) ? String(v) : v
  }
  if (depth >= FRAME_VARS_MAX_DEPTH) return '…'
  if (Array.isArray(v)) {
    return v.slice(0, FRAME_VARS_MAX_ITEMS).map((item) => bounded(item, depth + 1))
  }
  if (!isPlainObject(v)) return undefined
  const out: JsonObject = {}
  let n = 0
  for (const key in v) {
    if (n++ >= FRAME_VARS_MAX_ITEMS) break
    out[key] = bounded(v[key], depth + 1)
  }
  return out
}

/** A frame's `vars` bounded as documented, or `undefined` when it has none. */
export function frameVars(v: unknown): JsonObject | undefined {
  if (!isPlainObject(v)) return undefined
  const out: JsonObject = {}
  let n = 0
  for (const key in v) {
    if (n++ >= FRAME_VARS_MAX_KEYS) break
    out[key] = bounded(v[key], 1)
  }
  return n > 0 ? out : undefined
}
