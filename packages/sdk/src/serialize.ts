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

const str = (value: string, max: number) => (value.length > max ? `${value.slice(0, max)}…` : value)

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
    if (type === 'string') return str(v as string, maxString)
    if (type === 'number') return Number.isFinite(v) ? v : String(v)
    if (type === 'function') return `[Function ${(v as () => void).name || 'anonymous'}]`
    if (type === 'bigint' || type === 'symbol') return String(v)
    // booleans, undefined and null as they are
    if (!v || type !== 'object') return v
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
      if (Array.isArray(v) || v instanceof Set) {
        const items = [...(v as Iterable<unknown>)]
        const out = items.slice(0, maxBreadth).map((item) => visit(item, depth + 1) ?? null)
        if (items.length > maxBreadth) out.push(`[${items.length - maxBreadth} more]`)
        return out
      }
      const entries: [string, unknown][] =
        v instanceof Map
          ? [...v].map(([k, x]) => [String(k), x])
          : Object.keys(o).map((k) => [k, 0])
      if (v instanceof Error) entries.unshift(['name', 0], ['message', 0], ['stack', 0])
      const out: Record<string, unknown> = {}
      for (const [key, mapValue] of entries.slice(0, maxBreadth)) {
        let item: unknown
        try {
          item = v instanceof Map ? mapValue : o[key]
        } catch {
          item = '[Throws]'
        }
        const normalized = visit(item, depth + 1)
        if (normalized !== undefined) out[key] = normalized
      }
      if (entries.length > maxBreadth) out['…'] = `[${entries.length - maxBreadth} more]`
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
