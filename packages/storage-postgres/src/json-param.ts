// JSON.stringify escapes U+0000 as \u0000 and a lone surrogate as \udXXX (paired surrogates are
// written raw), so these patterns in its output find every string PostgreSQL would reject.
// A literal backslash in the text can match too; that only costs the slower pass.
const SUSPECT = /\\u0000|\\ud[89a-f][0-9a-f]{2}/i
// biome-ignore lint/suspicious/noControlCharactersInRegex: U+0000 is exactly what must be found
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g

/**
 * Serialises rows as the one jsonb parameter of a batch statement (sent as text and cast with
 * `$1::text::jsonb`, so neither driver re-encodes it). PostgreSQL text and jsonb cannot hold
 * U+0000 or unpaired surrogates (both reachable through `JSON.parse` of a request body), so such
 * characters become U+FFFD instead of failing the whole batch.
 */
export function toJsonParam(rows: readonly object[]): string {
  const json = JSON.stringify(rows)
  return SUSPECT.test(json) ? JSON.stringify(rows, sanitize) : json
}

const clean = (s: string) => s.replace(UNSTORABLE, '\uFFFD')

function sanitize(_key: string, value: unknown): unknown {
  if (typeof value === 'string') return clean(value)
  // Keys are not passed through the replacer as values: rebuild objects whose keys need it.
  // (The root is always the rows array; an object under an empty key "" needs it too.)
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const entries = Object.entries(value)
    if (entries.some(([k]) => clean(k) !== k)) {
      return Object.fromEntries(entries.map(([k, v]) => [clean(k), v]))
    }
  }
  return value
}
