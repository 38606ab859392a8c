import type { OtlpAttributes, OtlpScope, OtlpValue } from './types'
import {
  bytesOf,
  doubleOf,
  forEachField,
  stringOf,
  varintOf,
  WireError,
  type WireField,
} from './wire'

/** An int64 as a JSON number when it is safe, else as its decimal string. */
export function int64Value(value: bigint): number | string {
  const signed = BigInt.asIntN(64, value)
  const n = Number(signed)
  return Number.isSafeInteger(n) ? n : signed.toString()
}

/** Bytes as lower-case hex (trace and span ids). */
export function toHex(bytes: Uint8Array): string {
  let out = ''
  for (const byte of bytes) out += byte.toString(16).padStart(2, '0')
  return out
}

/** Bytes as base64, without `Buffer` so the package stays free of Node built-ins. */
export function toBase64(bytes: Uint8Array): string {
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary)
}

/** A trace or span id field: hex of the exact length, or `undefined` when empty (unset). */
export function idOf(value: WireField, length: 16 | 8, where: string): string | undefined {
  const bytes = bytesOf(value, where)
  if (bytes.length === 0) return undefined
  if (bytes.length !== length) {
    throw new WireError(`malformed protobuf: ${where} is ${bytes.length} bytes, expected ${length}`)
  }
  return toHex(bytes)
}

/** A varint enum or count as a JavaScript number (int32 semantics). */
export function enumOf(value: WireField, where: string): number {
  return Number(BigInt.asIntN(32, varintOf(value, where)))
}

/**
 * How deeply arrays and key/value lists may nest inside one value: deeper bodies are refused
 * here with a message rather than by the stack, and the event envelope limits depth anyway.
 */
export const MAX_VALUE_DEPTH = 32

/** The error for a value nested deeper than {@link MAX_VALUE_DEPTH}. */
export const tooDeep = (where: string): string =>
  `${where} nests arrays or key/value lists deeper than ${MAX_VALUE_DEPTH} levels`

/** `AnyValue` (common.proto); `depth` counts the arrays and lists around it. */
export function decodeAnyValue(buf: Uint8Array, depth = 0): OtlpValue {
  if (depth > MAX_VALUE_DEPTH) throw new WireError(`malformed protobuf: ${tooDeep('an AnyValue')}`)
  let result: OtlpValue = null
  forEachField(buf, 'AnyValue', (field, value) => {
    const where = `field ${field} of AnyValue`
    switch (field) {
      case 1:
        result = stringOf(value, where)
        break
      case 2:
        result = varintOf(value, where) !== 0n
        break
      case 3:
        result = int64Value(varintOf(value, where))
        break
      case 4:
        result = doubleOf(value, where)
        break
      case 5: {
        const values: OtlpValue[] = []
        forEachField(bytesOf(value, where), 'ArrayValue', (f, v) => {
          if (f === 1) values.push(decodeAnyValue(bytesOf(v, 'field 1 of ArrayValue'), depth + 1))
        })
        result = values
        break
      }
      case 6: {
        const entries: OtlpAttributes = {}
        forEachField(bytesOf(value, where), 'KeyValueList', (f, v) => {
          if (f === 1) decodeKeyValue(bytesOf(v, 'field 1 of KeyValueList'), entries, depth + 1)
        })
        result = entries
        break
      }
      case 7:
        result = toBase64(bytesOf(value, where))
        break
    }
  })
  return result
}

/** One `KeyValue`, added to `into`. */
export function decodeKeyValue(buf: Uint8Array, into: OtlpAttributes, depth = 0): void {
  let key = ''
  let val: OtlpValue = null
  forEachField(buf, 'KeyValue', (field, value) => {
    if (field === 1) key = stringOf(value, 'field 1 of KeyValue')
    else if (field === 2) val = decodeAnyValue(bytesOf(value, 'field 2 of KeyValue'), depth)
  })
  into[key] = val
}

/** `Resource`: its attributes. */
export function decodeResource(buf: Uint8Array): OtlpAttributes {
  const attributes: OtlpAttributes = {}
  forEachField(buf, 'Resource', (field, value) => {
    if (field === 1) decodeKeyValue(bytesOf(value, 'field 1 of Resource'), attributes)
  })
  return attributes
}

/** `InstrumentationScope`: name and version. */
export function decodeScope(buf: Uint8Array): OtlpScope {
  let name = ''
  let version: string | undefined
  forEachField(buf, 'InstrumentationScope', (field, value) => {
    const where = `field ${field} of InstrumentationScope`
    if (field === 1) name = stringOf(value, where)
    else if (field === 2) version = stringOf(value, where)
  })
  return version === undefined || version === '' ? { name } : { name, version }
}
