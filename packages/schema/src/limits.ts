/**
 * Bounds the normaliser enforces beyond the interface's own (which are in the schemas). They keep
 * one request from exhausting memory, the stack or a database index; each is reported as a 422
 * naming the field. The server adds a byte cap on the whole body.
 */
export const LIMITS = {
  /** Deepest nesting of objects and arrays in a body, counted from the body itself. */
  maxDepth: 64,
  /** Longest `message` and span `name`, in UTF-16 code units. */
  maxMessageLength: 65_536,
  /** Longest value of every other string field with a known meaning (ids, names, tags). */
  maxStringLength: 1_024,
  /** Most entries in `context.tags`. */
  maxTags: 256,
} as const

/**
 * Returns the nesting depth of a JSON value, or `Infinity` once it passes `limit`. Iterative, so a
 * hostile body cannot overflow the stack.
 */
export function jsonDepth(value: unknown, limit: number = LIMITS.maxDepth): number {
  let max = 0
  const stack: Array<[unknown, number]> = [[value, 1]]
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!
    if (node === null || typeof node !== 'object') continue
    if (depth > limit) return Number.POSITIVE_INFINITY
    if (depth > max) max = depth
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1])
    }
  }
  return max
}
