/** The parts of an OpenAPI 3.1 document the HTTP API page reads (any valid document fits). */
export interface OpenApiDocument {
  readonly info: { readonly title: string; readonly version: string; readonly description?: string }
  /** Tag objects (`name`, `description`): the page's sections, in this order. */
  readonly tags?: readonly object[]
  readonly paths: Readonly<Record<string, object>>
  readonly components?: {
    readonly schemas?: Readonly<Record<string, unknown>>
    readonly securitySchemes?: Readonly<Record<string, unknown>>
  }
}

/** A JSON object. */
export type Json = Record<string, unknown>

/** Whether a value is a JSON object (not an array). */
export const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
/** The value when it is a string. */
export const asString = (value: unknown) => (typeof value === 'string' ? value : undefined)
/** Text fit for a Markdown table cell: one line, `|` escaped. */
export const cell = (text: string | undefined) =>
  (text ?? '').replace(/\s*\n\s*/g, ' ').replaceAll('|', '\\|')

/** Follows `$ref`s (local ones, `#/…`) to the object they name; `{}` when there is none. */
export function resolve(doc: OpenApiDocument, value: unknown): Json {
  let current = value
  for (
    let hops = 0;
    hops < 20 && isObject(current) && typeof current['$ref'] === 'string';
    hops++
  ) {
    const parts = (current['$ref'] as string).replace(/^#\//, '').split('/')
    current = parts.reduce<unknown>((node, key) => (isObject(node) ? node[key] : undefined), doc)
  }
  return isObject(current) ? current : {}
}

/** The last segment of a `$ref` (`#/components/schemas/Event` → `Event`). */
export const refName = (value: unknown) =>
  isObject(value) && typeof value['$ref'] === 'string' ? value['$ref'].split('/').pop() : undefined

/** A short type description of a schema for tables: a name, a union, an enum or a shape. */
export function typeOf(doc: OpenApiDocument, value: unknown, depth = 0): string {
  const name = refName(value)
  if (name) return name
  const schema = resolve(doc, value)
  const union = (schema['oneOf'] ?? schema['anyOf']) as unknown[] | undefined
  if (Array.isArray(union) && union.some((s) => isObject(s) && (s['$ref'] || s['type']))) {
    return union.map((s) => typeOf(doc, s, depth)).join(' | ')
  }
  if (Array.isArray(schema['enum'])) return schema['enum'].map((v) => JSON.stringify(v)).join(', ')
  const type = schema['type']
  if (type === 'array') return `${typeOf(doc, schema['items'], depth)}[]`
  const properties = isObject(schema['properties']) ? schema['properties'] : undefined
  if (properties && depth < 2) {
    // Inline objects (answers such as `{ project: Project }`): their fields, aliases left out.
    const keys = Object.keys(properties).filter((k) => k !== k.toUpperCase())
    const shown = keys.slice(0, 4).map((k) => `${k}: ${typeOf(doc, properties[k], depth + 1)}`)
    return `{ ${shown.join(', ')}${keys.length > 4 ? ', …' : ''} }`
  }
  if (Array.isArray(type)) return type.join(' | ')
  const format = asString(schema['format'])
  return `${asString(type) ?? 'any'}${format ? ` (${format})` : ''}`
}

/**
 * An example value for a schema: its own `example`/`examples`/`const`/`default`/first enum value,
 * else a placeholder by type. Objects get their required properties, or — when none are required,
 * as in the management envelopes — the first property whose name is not UPPER_CASE (the aliases).
 */
export function sample(doc: OpenApiDocument, value: unknown, depth = 0, name = ''): unknown {
  const schema = resolve(doc, value)
  if ('example' in schema) return schema['example']
  if (Array.isArray(schema['examples']) && schema['examples'].length > 0)
    return schema['examples'][0]
  if ('const' in schema) return schema['const']
  if ('default' in schema) return schema['default']
  if (Array.isArray(schema['enum'])) return schema['enum'][0]
  if (depth > 6) return {}
  const union = (schema['oneOf'] ?? schema['anyOf']) as unknown[] | undefined
  const properties = isObject(schema['properties']) ? schema['properties'] : undefined
  if (!properties && Array.isArray(union) && union.length > 0)
    return sample(doc, union[0], depth + 1)
  const type = Array.isArray(schema['type']) ? schema['type'][0] : schema['type']
  if (type === 'array') return [sample(doc, schema['items'], depth + 1)]
  if (properties) {
    let keys = Array.isArray(schema['required']) ? (schema['required'] as string[]) : []
    // Envelopes: `oneOf: [{ required: ['event'] }, { required: ['EVENT'] }]`.
    const firstAlternative = Array.isArray(union) ? union[0] : undefined
    if (
      keys.length === 0 &&
      isObject(firstAlternative) &&
      Array.isArray(firstAlternative['required'])
    ) {
      keys = firstAlternative['required'] as string[]
    }
    if (keys.length === 0)
      keys = Object.keys(properties)
        .filter((k) => k !== k.toUpperCase())
        .slice(0, 1)
    // An event without a message is valid but says little; show one when the schema has it.
    if ('message' in properties && !keys.includes('message')) keys = [...keys, 'message']
    return Object.fromEntries(keys.map((k) => [k, sample(doc, properties[k], depth + 1, k)]))
  }
  switch (type) {
    case 'integer':
    case 'number':
      return typeof schema['minimum'] === 'number' ? schema['minimum'] : 1
    case 'boolean':
      return true
    case 'string':
      return stringSample(asString(schema['format']), name)
    default:
      return null
  }
}

function stringSample(format: string | undefined, name: string): string {
  if (/email/.test(name)) return 'dev@example.com'
  if (/sha$/.test(name)) return '4f2a9c1d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39'
  if (/url$/.test(name)) return 'https://example.com'
  if (name === 'repository') return 'acme/shop'
  if (name === 'environment') return 'production'
  if (name === 'release') return '1.0.0'
  if (name === 'message') return 'Hello from tis'
  switch (format) {
    case 'uuid':
      return '0190b1c2-3d4e-7f80-9a1b-2c3d4e5f6071'
    case 'date-time':
      return '2026-01-01T12:00:00Z'
    case 'email':
      return 'dev@example.com'
    case 'uri':
      return 'https://example.com'
    default:
      return 'example'
  }
}
