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
 * Bounds of the client-sent numbers and instants that are stored in columns or aggregated by the
 * read API. Each keeps what real clients send and rejects (422, naming the field) what
 * none does; docs/validation.md gives the reason for each.
 */
export const NUMERIC_BOUNDS = {
  /**
   * Longest `duration_ms` (events, context, check-ins): 365 days. No request, span or job run a
   * client times lasts a year, and the bound keeps sums and percentiles over any number of rows
   * finite in float8.
   */
  maxDurationMs: 31_536_000_000,
  /**
   * Largest magnitude of a metric's `context.value`: 1e20, above every real unit (nanosecond
   * Unix timestamps are about 1.8e18, a hundred exabytes is 1e20). A sum over 10^12 such values
   * (about 1e32) and PostgreSQL's running sum of squares behind `avg` (about 1e52) stay far below
   * float8's 1.8e308.
   */
  maxMetricMagnitude: 1e20,
  /** Largest integer `status` (event and context): an HTTP status has three digits. */
  maxStatusInteger: 999,
  /**
   * Largest magnitude of an integer `user_id`: the safe integers, which every JSON library reads
   * back exactly; larger ids (64-bit database keys) are sent as strings.
   */
  maxUserIdInteger: Number.MAX_SAFE_INTEGER,
  /** Largest integer `pull_request_number`: GitHub's and GitLab's numbers are 32-bit. */
  maxPullRequestNumber: 2_147_483_647,
  /**
   * First instant a stored date-time may name (inclusive): the Unix epoch. A clock that was never
   * set reads 1970-01-01; anything earlier (.NET's `DateTime.MinValue` is 0001-01-01) is a bug.
   */
  firstInstant: '1970-01-01T00:00:00Z',
  /**
   * The instant stored date-times must be before: 2100-01-01T00:00:00Z, beyond any clock skew,
   * so no record sits ahead of "newest first" lists for centuries and instant + interval
   * arithmetic stays within four-digit years.
   */
  endInstant: '2100-01-01T00:00:00Z',
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
