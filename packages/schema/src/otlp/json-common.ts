import { int64Value, MAX_VALUE_DEPTH, tooDeep } from './proto-common'
import type { OtlpAttributes, OtlpScope, OtlpValue } from './types'

/** An OTLP/JSON body of the wrong shape; never escapes the OTLP decoders. */
export class JsonShapeError extends Error {
  override readonly name = 'JsonShapeError'
}

/** A JSON object as read from an OTLP/JSON body. */
export type JsonRecord = Readonly<Record<string, unknown>>

const fail = (path: string, what: string) =>
  new JsonShapeError(`malformed OTLP/JSON: ${path} must be ${what}`)

/** A field by its lowerCamelCase name (the OTLP/JSON spelling) or its proto snake_case name. */
export function pick(o: JsonRecord, camel: string, snake: string): unknown {
  return o[camel] ?? o[snake]
}

/** An object, `{}` when absent or `null`. */
export function objectAt(value: unknown, path: string): JsonRecord {
  if (value === undefined || value === null) return {}
  if (typeof value !== 'object' || Array.isArray(value)) throw fail(path, 'an object')
  return value as JsonRecord
}

/** An array, `[]` when absent or `null`. */
export function arrayAt(value: unknown, path: string): readonly unknown[] {
  if (value === undefined || value === null) return []
  if (!Array.isArray(value)) throw fail(path, 'an array')
  return value
}

/** A string, `undefined` when absent or `null`. */
export function stringAt(value: unknown, path: string): string | undefined {
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'string') throw fail(path, 'a string')
  return value
}

const INT64_MIN = -(2n ** 63n)
const UINT64_MAX = 2n ** 64n - 1n

/** An (u)int64: an integer number or a decimal string, as in OTLP/JSON; 0 when absent. */
export function int64At(value: unknown, path: string): bigint {
  if (value === undefined || value === null) return 0n
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value)
  if (typeof value === 'string' && /^-?\d{1,20}$/.test(value)) {
    const n = BigInt(value)
    if (n >= INT64_MIN && n <= UINT64_MAX) return n
  }
  throw fail(path, 'an integer (a number or a decimal string)')
}

/** An enum: its integer or its name (`SPAN_KIND_SERVER`); 0 when absent. */
export function enumAt(value: unknown, names: readonly string[], path: string): number {
  if (value === undefined || value === null) return 0
  if (typeof value === 'number' && Number.isInteger(value)) return value
  if (typeof value === 'string') {
    const index = names.indexOf(value)
    if (index >= 0) return index
  }
  throw fail(path, `an integer or one of ${names.join(', ')}`)
}

/** A hex trace (32 digits) or span (16 digits) id, lower-cased; `undefined` when empty. */
export function hexIdAt(value: unknown, digits: 32 | 16, path: string): string | undefined {
  const text = stringAt(value, path)
  if (text === undefined || text === '') return undefined
  if (text.length !== digits || !/^[0-9a-fA-F]+$/.test(text)) {
    throw fail(path, `${digits} hex digits`)
  }
  return text.toLowerCase()
}

/** An OTLP/JSON `AnyValue` (`{"stringValue": …}`, `{"intValue": "5"}`, …). */
export function anyValueAt(value: unknown, path: string, depth = 0): OtlpValue {
  if (depth > MAX_VALUE_DEPTH) throw new JsonShapeError(`malformed OTLP/JSON: ${tooDeep(path)}`)
  const o = objectAt(value, path)
  const has = (camel: string, snake: string) => pick(o, camel, snake) !== undefined
  if (has('stringValue', 'string_value')) {
    return stringAt(pick(o, 'stringValue', 'string_value'), `${path}.stringValue`) ?? ''
  }
  if (has('boolValue', 'bool_value')) {
    const b = pick(o, 'boolValue', 'bool_value')
    if (typeof b !== 'boolean') throw fail(`${path}.boolValue`, 'a boolean')
    return b
  }
  if (has('intValue', 'int_value')) {
    return int64Value(int64At(pick(o, 'intValue', 'int_value'), `${path}.intValue`))
  }
  if (has('doubleValue', 'double_value')) return doubleAt(o, path)
  if (has('arrayValue', 'array_value')) {
    const inner = objectAt(pick(o, 'arrayValue', 'array_value'), `${path}.arrayValue`)
    return arrayAt(inner['values'], `${path}.arrayValue.values`).map((v, i) =>
      anyValueAt(v, `${path}.arrayValue.values[${i}]`, depth + 1),
    )
  }
  if (has('kvlistValue', 'kvlist_value')) {
    const inner = objectAt(pick(o, 'kvlistValue', 'kvlist_value'), `${path}.kvlistValue`)
    return attributesAt(inner['values'], `${path}.kvlistValue.values`, depth + 1)
  }
  if (has('bytesValue', 'bytes_value')) {
    const text = stringAt(pick(o, 'bytesValue', 'bytes_value'), `${path}.bytesValue`) ?? ''
    if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(text)) throw fail(`${path}.bytesValue`, 'base64')
    return text
  }
  return null
}

function doubleAt(o: JsonRecord, path: string): number {
  const d = pick(o, 'doubleValue', 'double_value')
  if (typeof d === 'number') return d
  // Proto3 JSON spells the non-finite doubles as strings.
  if (d === 'NaN' || d === 'Infinity' || d === '-Infinity') return Number(d)
  if (typeof d === 'string' && d.trim() !== '' && Number.isFinite(Number(d))) return Number(d)
  throw fail(`${path}.doubleValue`, 'a number')
}

/** A list of OTLP/JSON `KeyValue`s as an object. */
export function attributesAt(value: unknown, path: string, depth = 0): OtlpAttributes {
  const out: OtlpAttributes = {}
  arrayAt(value, path).forEach((entry, i) => {
    const kv = objectAt(entry, `${path}[${i}]`)
    const key = stringAt(kv['key'], `${path}[${i}].key`) ?? ''
    out[key] = anyValueAt(kv['value'], `${path}[${i}].value`, depth)
  })
  return out
}

/** A `resource` object: its attributes. */
export function resourceAt(value: unknown, path: string): OtlpAttributes {
  return attributesAt(objectAt(value, path)['attributes'], `${path}.attributes`)
}

/** A `scope` object: name and version. */
export function scopeAt(value: unknown, path: string): OtlpScope {
  const o = objectAt(value, path)
  const name = stringAt(o['name'], `${path}.name`) ?? ''
  const version = stringAt(o['version'], `${path}.version`)
  return version === undefined || version === '' ? { name } : { name, version }
}
