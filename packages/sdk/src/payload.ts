/** An ISO date-time for a `Date`, string or epoch milliseconds; `undefined` when unusable. */
export function isoTime(value: Date | string | number | undefined): string | undefined {
  try {
    // An invalid date (`undefined` included) throws a RangeError here.
    return new Date(value!).toISOString()
  } catch {
    // undefined
  }
}

/** A copy of `record` with camelCase keys in snake_case (`commitSha` → `commit_sha`). */
export function snakeKeys(record: object): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(record)) {
    out[key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)] = value
  }
  return out
}

/** `context.tags`: every value as a string. */
export function stringTags(...sources: (Record<string, unknown> | undefined)[]) {
  const tags: Record<string, string> = {}
  for (const source of sources) {
    if (!source) continue
    for (const key of Object.keys(source)) {
      try {
        const value = source[key]
        if (value !== undefined && value !== null) tags[key] = String(value)
      } catch {
        // a tag whose getter or toString throws is left out, not the whole record
      }
    }
  }
  return tags
}
