import { isoTime } from './payload'

/** Caps applied by {@link normalize}. */
export interface NormalizeLimits {
  /** Deepest nesting kept; deeper objects become `"[Object]"` / `"[Array]"`. @default 6 */
  readonly maxDepth?: number
  /** Most keys or items kept per object or array. @default 100 */
  readonly maxBreadth?: number
  /** Longest string kept (longer ones are cut and end with `…`). @default 2000 */
  readonly maxStringLength?: number
  /**
   * Most objects and arrays visited in one value, so a huge graph (a request object, a DOM
   * node) costs bounded time; later ones become `"[Truncated]"`. @default 1000
   */
  readonly maxObjects?: number
}

/**
 * Turns any value into plain JSON data without ever throwing: cycles become `"[Circular]"`,
 * deep values `"[Object]"`, throwing getters `"[Throws]"`, BigInt a decimal string, functions
 * `"[Function name]"`; long strings and wide objects are cut.
 */
export function normalize(value: unknown, limits: NormalizeLimits = {}): unknown {
  const maxDepth = limits.maxDepth ?? 6
  const maxBreadth = limits.maxBreadth ?? 100
  const maxString = limits.maxStringLength ?? 2000
  let budget = limits.maxObjects ?? 1000
  const seen: unknown[] = []

  function visit(v: unknown, depth: number): unknown {
    const type = typeof v
    if (type === 'string')
      return (v as string).length > maxString ? `${(v as string).slice(0, maxString)}…` : v
    if (type === 'function') return `[Function ${(v as () => void).name || 'anonymous'}]`
    // Booleans, finite numbers, undefined and null as they are; NaN, ±Infinity, BigInt and
    // symbols as strings.
    if (type !== 'object' || !v) {
      return v == null || type === 'boolean' || Number.isFinite(v) ? v : String(v)
    }
    if (seen.includes(v)) return '[Circular]'
    if (--budget < 0) return '[Truncated]'
    seen.push(v)
    try {
      if (v instanceof Date) return isoTime(v) ?? 'Invalid Date'
      if (depth >= maxDepth) return Array.isArray(v) ? '[Array]' : '[Object]'
      const o = v as Record<string, unknown>
      if (typeof o['toJSON'] === 'function' && !(v instanceof Error)) {
        return visit((o['toJSON'] as () => unknown)(), depth)
      }
      // Arrays and sets become arrays, maps and other objects objects; an object's values are
      // read one by one, as a getter may throw.
      const list = Array.isArray(v) || v instanceof Set
      const map = v instanceof Map
      const keys: unknown[] = list || map ? [...(v as Iterable<unknown>)] : Object.keys(o)
      if (v instanceof Error) keys.unshift('name', 'message', 'stack')
      const out = (list ? [] : {}) as Record<string | number, unknown>
      for (const [i, k] of keys.slice(0, maxBreadth).entries()) {
        let item: unknown
        try {
          item = list ? k : map ? (k as unknown[])[1] : o[k as string]
        } catch {
          item = '[Throws]'
        }
        item = visit(item, depth + 1)
        if (list) item ??= null
        if (item !== undefined)
          out[list ? i : map ? String((k as unknown[])[0]) : (k as string)] = item
      }
      if (keys.length > maxBreadth)
        out[list ? maxBreadth : '…'] = `[${keys.length - maxBreadth} more]`
      return out
    } catch {
      return '[Unserializable]'
    } finally {
      seen.pop()
    }
  }
  try {
    return visit(value, 0)
  } catch {
    return '[Unserializable]'
  }
}

/** `JSON.stringify` of {@link normalize}: never throws, always a string. */
export function safeStringify(value: unknown, limits?: NormalizeLimits): string {
  return JSON.stringify(normalize(value, limits)) ?? 'null'
}
