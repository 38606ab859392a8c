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
 * documented field means "not given" and is dropped. Unknown keys pass through untouched.
 * Builds a fresh object with own data properties only, so `__proto__` keys stay inert.
 */
export function canonicalizeKeys(input: JsonObject, spec: KeySpec): JsonObject {
  const exact: Array<[string, unknown]> = []
  const spelled: Array<[string, unknown]> = []
  const unknown: Array<[string, unknown]> = []
  for (const [key, value] of Object.entries(input)) {
    const snake = toSnakeCase(key)
    const canonical = spec.aliases?.[snake] ?? snake
    if (!spec.known.has(canonical)) unknown.push([key, value])
    else if (value === null || value === undefined) continue
    else if (key === canonical) exact.push([canonical, value])
    else spelled.push([canonical, value])
  }
  const out = new Map<string, unknown>(exact)
  for (const [key, value] of spelled) if (!out.has(key)) out.set(key, value)
  for (const [key, value] of unknown) if (!out.has(key)) out.set(key, value)
  return Object.fromEntries(out)
}
