/**
 * A minimal protobuf wire-format reader: just enough to walk the OTLP export requests. Every
 * read is bounds-checked; a malformed body raises {@link WireError}, which the decoders turn into
 * an `{ ok: false }` result at their boundary.
 */

/** A malformed or truncated protobuf body; never escapes the OTLP decoders. */
export class WireError extends Error {
  override readonly name = 'WireError'
}

/** One field as found on the wire, before it is interpreted. */
export type WireField =
  | { readonly wire: 0; readonly varint: bigint }
  | { readonly wire: 1; readonly bytes: Uint8Array }
  | { readonly wire: 2; readonly bytes: Uint8Array }
  | { readonly wire: 5; readonly bytes: Uint8Array }

/**
 * Calls `visit` for every field of `buf` in order; unknown fields are the visitor's to ignore.
 * `message` names the message type in error messages ("field 2 of Span runs past …").
 */
export function forEachField(
  buf: Uint8Array,
  message: string,
  visit: (field: number, value: WireField) => void,
): void {
  let pos = 0
  while (pos < buf.length) {
    const tag = readVarint(buf, pos, `a field tag of ${message}`)
    pos = tag.next
    const field = Number(tag.value >> 3n)
    const wire = Number(tag.value & 7n)
    if (field === 0) throw new WireError(`malformed protobuf: field number 0 in ${message}`)
    const where = `field ${field} of ${message}`
    switch (wire) {
      case 0: {
        const v = readVarint(buf, pos, where)
        pos = v.next
        visit(field, { wire: 0, varint: v.value })
        break
      }
      case 1:
      case 5: {
        const size = wire === 1 ? 8 : 4
        if (pos + size > buf.length) throw truncated(where)
        const bytes = buf.subarray(pos, pos + size)
        visit(field, wire === 1 ? { wire: 1, bytes } : { wire: 5, bytes })
        pos += size
        break
      }
      case 2: {
        const len = readVarint(buf, pos, where)
        const end = len.next + Number(len.value)
        if (len.value > BigInt(buf.length) || end > buf.length) throw truncated(where)
        visit(field, { wire: 2, bytes: buf.subarray(len.next, end) })
        pos = end
        break
      }
      default:
        throw new WireError(`malformed protobuf: ${where} has unsupported wire type ${wire}`)
    }
  }
}

function truncated(where: string): WireError {
  return new WireError(`truncated protobuf: ${where} runs past the end of the body`)
}

function readVarint(buf: Uint8Array, start: number, where: string) {
  let value = 0n
  let pos = start
  for (let shift = 0n; shift < 70n; shift += 7n) {
    const byte = buf[pos]
    if (byte === undefined) throw truncated(where)
    pos++
    value |= BigInt(byte & 0x7f) << shift
    if (byte < 0x80) return { value: BigInt.asUintN(64, value), next: pos }
  }
  throw new WireError(`malformed protobuf: ${where} has a varint longer than 10 bytes`)
}

function expectWire<W extends WireField['wire']>(
  value: WireField,
  wire: W,
  where: string,
): asserts value is Extract<WireField, { wire: W }> {
  if (value.wire !== wire) {
    throw new WireError(
      `malformed protobuf: ${where} has wire type ${value.wire}, expected ${wire}`,
    )
  }
}

/** The bytes of a length-delimited field (a string, bytes or an embedded message). */
export function bytesOf(value: WireField, where: string): Uint8Array {
  expectWire(value, 2, where)
  return value.bytes
}

const UTF8 = new TextDecoder('utf-8', { fatal: true })

/** A length-delimited field read as UTF-8 text. */
export function stringOf(value: WireField, where: string): string {
  try {
    return UTF8.decode(bytesOf(value, where))
  } catch (error) {
    if (error instanceof WireError) throw error
    throw new WireError(`malformed protobuf: ${where} is not valid UTF-8`)
  }
}

/** A varint field (enum, bool, int32/int64 in two's complement) as a bigint. */
export function varintOf(value: WireField, where: string): bigint {
  expectWire(value, 0, where)
  return value.varint
}

/** A fixed64 field as an unsigned bigint (the OTLP timestamps). */
export function fixed64Of(value: WireField, where: string): bigint {
  expectWire(value, 1, where)
  return new DataView(value.bytes.buffer, value.bytes.byteOffset, 8).getBigUint64(0, true)
}

/** A fixed64 field read as a little-endian IEEE 754 double. */
export function doubleOf(value: WireField, where: string): number {
  expectWire(value, 1, where)
  return new DataView(value.bytes.buffer, value.bytes.byteOffset, 8).getFloat64(0, true)
}
