/**
 * Bounds the normaliser enforces beyond the interface's own (which are in the schemas). They keep
 * one request from exhausting memory, the stack or a database index. On events and compact
 * check-ins a string over its limit is cut to it (see `truncateText`); elsewhere (deployments,
 * mobile tokens, management bodies) it is a 422 naming the field. The server adds a byte cap on
 * the whole body.
 */
export const LIMITS = {
  /** Deepest nesting of objects and arrays in a body, counted from the body itself. */
  maxDepth: 64,
  /** Longest `message` and span `name`, in UTF-16 code units. */
  maxMessageLength: 65_536,
  /** Longest value of every other string field with a known meaning (ids, names, tags). */
  maxStringLength: 1_024,
  /** Longest URL-like value: `context.request.url`, `path`, `query_string`, deployment links. */
  maxUrlLength: 8_192,
  /** Longest key of `context.tags`. */
  maxTagKeyLength: 200,
  /** Most entries in `context.tags`. */
  maxTags: 256,
  /** Largest `expected_interval_seconds` (a 32-bit integer column: about 68 years). */
  maxIntervalSeconds: 2_147_483_647,
} as const

/**
 * Returns the nesting depth of a JSON value, or `Infinity` once it passes `limit`. Recursion stops
 * at `limit + 1` levels, so a hostile body cannot overflow the stack.
 */
export function jsonDepth(value: unknown, limit: number = LIMITS.maxDepth): number {
  return depthOf(value, 1, limit)
}

function depthOf(node: unknown, depth: number, limit: number): number {
  if (node === null || typeof node !== 'object') return 0
  if (depth > limit) return Number.POSITIVE_INFINITY
  let max = depth
  if (Array.isArray(node)) {
    for (const child of node) {
      if (child !== null && typeof child === 'object') {
        const d = depthOf(child, depth + 1, limit)
        if (d > max) max = d
      }
    }
  } else {
    for (const key in node) {
      const child = (node as Record<string, unknown>)[key]
      if (child !== null && typeof child === 'object') {
        const d = depthOf(child, depth + 1, limit)
        if (d > max) max = d
      }
    }
  }
  return max
}
