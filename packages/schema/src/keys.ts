/** A plain JSON object as the normaliser sees it. */
export type JsonObject = Record<string, unknown>

/** True for a non-null, non-array object. */
export function isPlainObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * Converts `eventType`, `EventType`, `EVENT_TYPE`, `traceID` and `event-type` to `event_type`.
 * Used only to match documented field names: unknown keys are never renamed.
 */
export function toSnakeCase(key: string): string {
  if (/^[A-Z0-9_]+$/.test(key)) return key.toLowerCase()
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .replace(/-/g, '_')
    .toLowerCase()
}

/** How the keys of one object are made canonical. */
export interface KeySpec {
  /** Canonical snake_case names of the documented fields. */
  readonly known: ReadonlySet<string>
  /** Documented aliases (already snake_case) and the canonical name each stands for. */
  readonly aliases?: Readonly<Record<string, string>>
}

/**
 * Renames documented fields to their canonical snake_case names: camelCase, PascalCase and
 * UPPER_CASE spellings and documented aliases. A key spelled canonically wins over any other
 * spelling of the same field; otherwise the first spelling in the body wins. `null` on a
 * documented field means "not given" and is dropped. Unknown keys pass through untouched, except
 * `__proto__`, which is dropped so no prototype can be swapped in.
 */
export function canonicalizeKeys(input: JsonObject, spec: KeySpec): JsonObject {
  const out: JsonObject = {}
  const spelled: Array<[string, unknown]> = []
  const unknown: Array<[string, unknown]> = []
  for (const key in input) {
    if (!Object.hasOwn(input, key) || key === '__proto__') continue
    const value = input[key]
    if (spec.known.has(key) && spec.aliases?.[key] === undefined) {
      if (value !== null && value !== undefined) out[key] = value
      continue
    }
    const snake = snakeCached(key)
    const canonical = spec.aliases?.[snake] ?? snake
    if (!spec.known.has(canonical)) unknown.push([key, value])
    else if (value !== null && value !== undefined) spelled.push([canonical, value])
  }
  for (const [key, value] of spelled) if (!Object.hasOwn(out, key)) out[key] = value
  for (const [key, value] of unknown) if (!Object.hasOwn(out, key)) out[key] = value
  return out
}

// Key spellings repeat across requests; remembering them keeps the regexes off the hot path.
const SNAKE_CACHE = new Map<string, string>()
const SNAKE_CACHE_SIZE = 4_096

function snakeCached(key: string): string {
  let snake = SNAKE_CACHE.get(key)
  if (snake === undefined) {
    snake = toSnakeCase(key)
    if (SNAKE_CACHE.size >= SNAKE_CACHE_SIZE) SNAKE_CACHE.clear()
    if (key.length <= 64) SNAKE_CACHE.set(key, snake)
  }
  return snake
}
