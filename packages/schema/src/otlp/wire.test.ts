import { ProtobufLogsSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer'
import { describe, expect, it } from 'vitest'
import { sampleLogs, sampleSpans } from '../../test/otel-fixtures'
import { decodeOtlpLogs, decodeOtlpTraces } from './decode'

const PROTOBUF = 'application/x-protobuf'
const traceBody = ProtobufTraceSerializer.serializeRequest(sampleSpans()) ?? new Uint8Array()
const logsBody = ProtobufLogsSerializer.serializeRequest(sampleLogs()) ?? new Uint8Array()

/** A length-delimited field: tag, length (one byte here), payload. */
const ld = (field: number, payload: number[]) => [(field << 3) | 2, payload.length, ...payload]

/** A length-delimited field of any length (fields 1 to 15). */
function lenDelimited(field: number, payload: number[]): number[] {
  const length: number[] = []
  let n = payload.length
  while (n >= 0x80) {
    length.push((n & 0x7f) | 0x80)
    n >>>= 7
  }
  length.push(n)
  return [(field << 3) | 2, ...length, ...payload]
}

describe('truncated protobuf', () => {
  it.each([
    ['traces', traceBody, decodeOtlpTraces],
    ['logs', logsBody, decodeOtlpLogs],
  ] as const)('every prefix of a real %s body gives a result, never a throw', (_, body, decode) => {
    expect(body.length).toBeGreaterThan(200)
    let failures = 0
    for (let cut = 0; cut < body.length; cut++) {
      const result = decode(body.subarray(0, cut), PROTOBUF)
      if (!result.ok) {
        failures++
        expect(result.message).toMatch(/^(truncated|malformed) protobuf: /)
      }
    }
    // Cuts that land between top-level fields are valid shorter requests; nearly all others fail.
    expect(failures).toBeGreaterThan(body.length * 0.9)
  })

  it('names the field and message that run past the end', () => {
    const result = decodeOtlpTraces(traceBody.subarray(0, traceBody.length - 1), PROTOBUF)
    expect(result).toEqual({
      ok: false,
      message:
        'truncated protobuf: field 1 of ExportTraceServiceRequest runs past the end of the body',
    })
    // A span whose name claims more bytes than the span holds.
    const span = ld(2, ld(5, [0x61, 0x62]).slice(0, 3))
    const body = new Uint8Array(ld(1, ld(2, span)))
    expect(decodeOtlpTraces(body, PROTOBUF)).toEqual({
      ok: false,
      message: 'truncated protobuf: field 5 of Span runs past the end of the body',
    })
  })

  it('rejects a varint that never ends', () => {
    const result = decodeOtlpTraces(new Uint8Array(12).fill(0xff), PROTOBUF)
    expect(result).toEqual({
      ok: false,
      message:
        'malformed protobuf: a field tag of ExportTraceServiceRequest has a varint longer than 10 bytes',
    })
  })
})

describe('unknown and malformed fields', () => {
  it('skips unknown fields of every wire type', () => {
    // Field numbers above 15 take two-byte tags: (99 << 3) | 0 = 792 = 0x98 0x06.
    const unknown = [
      ...[0x98, 0x06, 0x96, 0x01], // field 99, varint 150
      ...[0x91, 0x06, 1, 2, 3, 4, 5, 6, 7, 8], // field 98, fixed64
      ...[0x8d, 0x06, 1, 2, 3, 4], // field 97, fixed32
      ...[0x82, 0x06, 3, 1, 2, 3], // field 96, length-delimited
    ]
    const span = [...unknown, ...ld(5, [0x6a, 0x6f, 0x62]), ...unknown]
    const body = new Uint8Array([...unknown, ...ld(1, [...unknown, ...ld(2, ld(2, span))])])
    const result = decodeOtlpTraces(body, PROTOBUF)
    expect(result.ok && result.value.resourceSpans[0]?.scopeSpans[0]?.spans[0]?.name).toBe('job')
  })

  it.each([
    [
      'a group (wire type 3)',
      [(1 << 3) | 3],
      /field 1 of ExportTraceServiceRequest has unsupported wire type 3/,
    ],
    ['field number 0', [0, 0], /field number 0 in ExportTraceServiceRequest/],
    [
      'a name sent as a varint',
      ld(1, ld(2, ld(2, [(5 << 3) | 0, 1]))),
      /field 5 of Span has wire type 0, expected 2/,
    ],
    [
      'a 3-byte span id',
      ld(1, ld(2, ld(2, ld(2, [1, 2, 3])))),
      /field 2 of Span is 3 bytes, expected 8/,
    ],
    [
      'invalid UTF-8 in a name',
      ld(1, ld(2, ld(2, ld(5, [0xc3, 0x28])))),
      /field 5 of Span is not valid UTF-8/,
    ],
    [
      'a start time as fixed32',
      ld(1, ld(2, ld(2, [(7 << 3) | 5, 0, 0, 0, 0]))),
      /field 7 of Span has wire type 5, expected 1/,
    ],
  ])('rejects %s', (_, bytes, message) => {
    const result = decodeOtlpTraces(new Uint8Array(bytes), PROTOBUF)
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.message).toMatch(message)
  })

  it('refuses values nested past the depth limit with a message, not a stack overflow', () => {
    // A log body of arrays inside arrays, built inside out: AnyValue{array_value{values: …}}.
    const nested = (levels: number) => {
      let value: number[] = ld(1, [0x61])
      for (let i = 0; i < levels; i++) value = lenDelimited(5, lenDelimited(1, value))
      const record = lenDelimited(5, value)
      return new Uint8Array(lenDelimited(1, lenDelimited(2, lenDelimited(2, record))))
    }
    expect(decodeOtlpLogs(nested(32), PROTOBUF).ok).toBe(true)
    expect(decodeOtlpLogs(nested(33), PROTOBUF)).toEqual({
      ok: false,
      message:
        'malformed protobuf: an AnyValue nests arrays or key/value lists deeper than 32 levels',
    })
    expect(decodeOtlpLogs(nested(2_000), PROTOBUF).ok).toBe(false)
  })

  it('decodes an empty body as an empty request', () => {
    expect(decodeOtlpTraces(new Uint8Array(), PROTOBUF)).toEqual({
      ok: true,
      value: { resourceSpans: [] },
    })
  })
})
