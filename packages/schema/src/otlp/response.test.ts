import {
  JsonLogsSerializer,
  JsonTraceSerializer,
  ProtobufLogsSerializer,
  ProtobufTraceSerializer,
} from '@opentelemetry/otlp-transformer'
import { describe, expect, it } from 'vitest'
import { encodeOtlpExportResponse, encodeOtlpStatus } from './response'
import { forEachField } from './wire'

// The answers are read back with the OpenTelemetry exporters' own deserialisers.

const bytes = (body: unknown) => body as Uint8Array
const jsonBytes = (body: unknown) => new TextEncoder().encode(JSON.stringify(body))

describe('encodeOtlpExportResponse', () => {
  it('is empty when everything was accepted', () => {
    expect(encodeOtlpExportResponse('traces', 'protobuf')).toEqual(new Uint8Array(0))
    expect(encodeOtlpExportResponse('logs', 'json')).toEqual({})
    expect(ProtobufTraceSerializer.deserializeResponse(new Uint8Array(0))).toEqual({})
  })

  it('carries partial_success for traces, as the exporters read it', () => {
    const proto = encodeOtlpExportResponse('traces', 'protobuf', 3, 'span 2: trace_id is invalid')
    const read = ProtobufTraceSerializer.deserializeResponse(bytes(proto))
    expect(Number(read.partialSuccess?.rejectedSpans)).toBe(3)
    expect(read.partialSuccess?.errorMessage).toBe('span 2: trace_id is invalid')
    const json = encodeOtlpExportResponse('traces', 'json', 3, 'why')
    expect(JsonTraceSerializer.deserializeResponse(jsonBytes(json))).toEqual({
      partialSuccess: { rejectedSpans: 3, errorMessage: 'why' },
    })
  })

  it('carries partial_success for logs, with a count over 127 (a multi-byte varint)', () => {
    const proto = encodeOtlpExportResponse('logs', 'protobuf', 300, 'too old')
    const read = ProtobufLogsSerializer.deserializeResponse(bytes(proto))
    expect(Number(read.partialSuccess?.rejectedLogRecords)).toBe(300)
    expect(read.partialSuccess?.errorMessage).toBe('too old')
    expect(
      JsonLogsSerializer.deserializeResponse(
        jsonBytes(encodeOtlpExportResponse('logs', 'json', 300, 'too old')),
      ),
    ).toEqual({ partialSuccess: { rejectedLogRecords: 300, errorMessage: 'too old' } })
  })
})

describe('encodeOtlpStatus', () => {
  function readStatus(body: Uint8Array) {
    const out: { code?: number; message?: string } = {}
    forEachField(body, 'Status', (field, value) => {
      if (field === 1 && value.wire === 0) out.code = Number(value.varint)
      if (field === 2 && value.wire === 2) out.message = new TextDecoder().decode(value.bytes)
    })
    return out
  }

  it.each([
    [400, 3],
    [401, 16],
    [403, 7],
    [429, 8],
    [503, 14],
    [500, 2],
  ])('maps HTTP %i to the gRPC code %i, in both encodings', (status, code) => {
    const message = `refused with ${status}: é`
    expect(readStatus(bytes(encodeOtlpStatus(status, message, 'protobuf')))).toEqual({
      code,
      message,
    })
    expect(encodeOtlpStatus(status, message, 'json')).toEqual({ code, message })
  })
})
