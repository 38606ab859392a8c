import {
  JsonLogsSerializer,
  JsonTraceSerializer,
  ProtobufLogsSerializer,
  ProtobufTraceSerializer,
} from '@opentelemetry/otlp-transformer'
import { describe, expect, it } from 'vitest'
import {
  DB_ID,
  HTTP_ID,
  INTERNAL_ID,
  QUEUE_ID,
  ROOT_ATTRIBUTES,
  ROOT_ID,
  sampleLogs,
  sampleSpans,
  TRACE_ID,
} from '../../test/otel-fixtures'
import { decodeOtlpLogs, decodeOtlpTraces } from './decode'
import type { OtlpLogs, OtlpTraces } from './types'

const PROTOBUF = 'application/x-protobuf'
const JSON_TYPE = 'application/json'
const bytes = (value: Uint8Array | undefined): Uint8Array => {
  if (value === undefined) throw new Error('the serializer returned nothing')
  return value
}

const ENCODINGS = [
  ['protobuf', PROTOBUF, ProtobufTraceSerializer, ProtobufLogsSerializer],
  ['OTLP/JSON', JSON_TYPE, JsonTraceSerializer, JsonLogsSerializer],
] as const

function traces(contentType: string, body: Uint8Array): OtlpTraces {
  const result = decodeOtlpTraces(body, contentType)
  if (!result.ok) throw new Error(result.message)
  return result.value
}

function logs(contentType: string, body: Uint8Array): OtlpLogs {
  const result = decodeOtlpLogs(body, contentType)
  if (!result.ok) throw new Error(result.message)
  return result.value
}

describe.each(ENCODINGS)('decoding %s from the OpenTelemetry serializer', (_, type, tr, lg) => {
  it('decodes resource, scope and every span field', () => {
    const decoded = traces(type, bytes(tr.serializeRequest(sampleSpans())))
    expect(decoded.resourceSpans).toHaveLength(1)
    const [rs] = decoded.resourceSpans
    expect(rs?.resource).toEqual({
      'service.name': 'checkout',
      'service.version': '1.4.2',
      'deployment.environment.name': 'staging',
    })
    expect(rs?.scopeSpans).toHaveLength(1)
    expect(rs?.scopeSpans[0]?.scope).toEqual({ name: '@acme/instrumentation', version: '0.9.1' })
    const spans = rs?.scopeSpans[0]?.spans ?? []
    expect(spans.map((s) => [s.spanId, s.kind, s.parentSpanId])).toEqual([
      [ROOT_ID, 2, undefined],
      [DB_ID, 3, ROOT_ID],
      [HTTP_ID, 3, ROOT_ID],
      [QUEUE_ID, 4, ROOT_ID],
      [INTERNAL_ID, 1, ROOT_ID],
    ])
    expect(spans[0]).toEqual({
      traceId: TRACE_ID,
      spanId: ROOT_ID,
      name: 'GET /orders/:id',
      kind: 2,
      startTimeUnixNano: '1795694400123456789',
      endTimeUnixNano: '1795694400373456789',
      attributes: ROOT_ATTRIBUTES,
      events: [],
      status: { code: 2, message: 'upstream unavailable' },
    })
    expect(spans[1]?.status).toEqual({ code: 1 })
    expect(spans[1]?.endTimeUnixNano).toBe('1795694400135956789')
    expect(spans[4]?.events).toEqual([
      { name: 'cache.miss', timeUnixNano: '1795694400233456789', attributes: { key: 'k1' } },
      {
        name: 'exception',
        timeUnixNano: '1795694400273456789',
        attributes: {
          'exception.type': 'TypeError',
          'exception.message': "Cannot read properties of undefined (reading 'id')",
          'exception.stacktrace': 'TypeError: Cannot read …\n    at render (app.js:10:5)',
        },
      },
    ])
  })

  it('decodes every log record field, bodies of every AnyValue kind included', () => {
    const decoded = logs(type, bytes(lg.serializeRequest(sampleLogs())))
    const [rl] = decoded.resourceLogs
    expect(rl?.resource['service.name']).toBe('checkout')
    expect(rl?.scopeLogs[0]?.scope).toEqual({ name: '@acme/instrumentation', version: '0.9.1' })
    const records = rl?.scopeLogs[0]?.logRecords ?? []
    expect(records).toEqual([
      {
        timeUnixNano: '1795694400123456789',
        observedTimeUnixNano: '1795694400124456789',
        severityNumber: 13,
        severityText: 'WARN',
        body: 'disk almost full',
        attributes: { 'disk.free_bytes': 1024, 'disk.path': '/var' },
        traceId: TRACE_ID,
        spanId: ROOT_ID,
      },
      {
        timeUnixNano: '1795694400123456789',
        observedTimeUnixNano: '1795694400124456789',
        severityNumber: 19,
        body: { user: { id: 7, roles: ['admin', 'ops'] }, ok: false, ratio: 1.5 },
        attributes: {},
      },
      {
        timeUnixNano: '1795694400123456789',
        observedTimeUnixNano: '1795694400124456789',
        severityNumber: 2,
        body: 'AQL/',
        attributes: {},
      },
      {
        timeUnixNano: '0',
        observedTimeUnixNano: '1795694400124456789',
        severityNumber: 21,
        body: 'dying',
        attributes: {},
      },
    ])
  })
})

describe('OTLP/JSON as other senders write it', () => {
  const encode = (value: unknown) => new TextEncoder().encode(JSON.stringify(value))

  it('reads enum names, int64 as numbers, upper-case hex and snake_case fields', () => {
    const body = encode({
      resource_spans: [
        {
          scope_spans: [
            {
              spans: [
                {
                  trace_id: TRACE_ID.toUpperCase(),
                  spanId: ROOT_ID,
                  name: 'job',
                  kind: 'SPAN_KIND_CONSUMER',
                  startTimeUnixNano: 1_000_000_000,
                  endTimeUnixNano: '2000000000',
                  attributes: [
                    { key: 'n', value: { intValue: '9007199254740993' } },
                    { key: 'd', value: { doubleValue: 'NaN' } },
                    { key: 'empty', value: {} },
                  ],
                  status: { code: 'STATUS_CODE_ERROR' },
                },
              ],
            },
          ],
        },
      ],
    })
    const span = traces(JSON_TYPE, body).resourceSpans[0]?.scopeSpans[0]?.spans[0]
    expect(span).toMatchObject({ traceId: TRACE_ID, kind: 5, status: { code: 2 } })
    expect(span?.startTimeUnixNano).toBe('1000000000')
    expect(span?.attributes).toEqual({ n: '9007199254740993', d: Number.NaN, empty: null })
  })

  it('reads severity names and ignores unknown fields', () => {
    const body = encode({
      resourceLogs: [
        {
          futureField: 1,
          scopeLogs: [{ logRecords: [{ severityNumber: 'SEVERITY_NUMBER_INFO4', extra: true }] }],
        },
      ],
    })
    const record = logs(JSON_TYPE, body).resourceLogs[0]?.scopeLogs[0]?.logRecords[0]
    expect(record).toEqual({
      timeUnixNano: '0',
      observedTimeUnixNano: '0',
      severityNumber: 12,
      attributes: {},
    })
  })

  it.each([
    ['not JSON', '{"resourceSpans": [', /^malformed OTLP\/JSON: /],
    [
      'a string where spans go',
      '{"resourceSpans":[{"scopeSpans":[{"spans":"x"}]}]}',
      /resourceSpans\[0\]\.scopeSpans\[0\]\.spans must be an array/,
    ],
    [
      'a short trace id',
      `{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"abc"}]}]}]}`,
      /traceId must be 32 hex digits/,
    ],
    [
      'an unknown kind name',
      '{"resourceSpans":[{"scopeSpans":[{"spans":[{"kind":"SPAN_KIND_X"}]}]}]}',
      /kind must be an integer or one of/,
    ],
    [
      'a fractional time',
      '{"resourceSpans":[{"scopeSpans":[{"spans":[{"startTimeUnixNano":1.5}]}]}]}',
      /startTimeUnixNano must be an integer/,
    ],
    ['a body that is an array', '[]', /the body must be an object/],
    [
      'a time past uint64',
      '{"resourceSpans":[{"scopeSpans":[{"spans":[{"endTimeUnixNano":"18446744073709551616"}]}]}]}',
      /endTimeUnixNano must be an integer/,
    ],
    [
      'an attribute nested 40 levels deep',
      `{"resourceSpans":[{"scopeSpans":[{"spans":[{"attributes":[{"key":"k","value":${'{"arrayValue":{"values":['.repeat(40)}${']}}'.repeat(40)}}]}]}]}]}`,
      /attributes\[0\]\.value(\.arrayValue\.values\[0\])+ nests arrays or key\/value lists deeper than 32 levels/,
    ],
  ])('rejects %s with a message', (_, text, message) => {
    const result = decodeOtlpTraces(new TextEncoder().encode(text), JSON_TYPE)
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.message).toMatch(message)
  })
})

describe('content types', () => {
  const body = bytes(ProtobufTraceSerializer.serializeRequest(sampleSpans()))

  it('accepts parameters and any case', () => {
    expect(decodeOtlpTraces(body, 'Application/X-Protobuf; charset=binary').ok).toBe(true)
  })

  it.each(['application/grpc', 'text/plain', ''])('rejects %j', (type) => {
    expect(decodeOtlpTraces(body, type)).toEqual({
      ok: false,
      message: `unsupported content type ${JSON.stringify(type)}: send application/x-protobuf or application/json`,
    })
    expect(decodeOtlpLogs(body, type).ok).toBe(false)
  })
})
