import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer'
import { describe, expect, it } from 'vitest'
import {
  DB_ID,
  HTTP_ID,
  INTERNAL_ID,
  QUEUE_ID,
  ROOT_ATTRIBUTES,
  ROOT_ID,
  sampleSpans,
  TRACE_ID,
} from '../../test/otel-fixtures'
import { parseEventEnvelope } from '../event'
import { decodeOtlpTraces } from './decode'
import { spanEventId } from './map-common'
import { httpStatusOf, otlpSpansToEnvelopes, tisSpanKind } from './map-spans'
import type { OtlpTraces } from './types'

function decoded(): OtlpTraces {
  const body = ProtobufTraceSerializer.serializeRequest(sampleSpans()) ?? new Uint8Array()
  const result = decodeOtlpTraces(body, 'application/x-protobuf')
  if (!result.ok) throw new Error(result.message)
  return result.value
}

const UUID_V8 = /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

const RESOURCE = {
  'service.name': 'checkout',
  'service.version': '1.4.2',
  'deployment.environment.name': 'staging',
}
const SCOPE = { name: '@acme/instrumentation', version: '0.9.1' }

describe('otlpSpansToEnvelopes', () => {
  const envelopes = otlpSpansToEnvelopes(decoded())
  const events = envelopes.map((e) => e.event)

  it('makes a span per span, a transaction for the root SERVER span, an error per exception', () => {
    expect(events.map((e) => [e['event_type'], e['span_id']])).toEqual([
      ['span', ROOT_ID],
      ['transaction', ROOT_ID],
      ['span', DB_ID],
      ['span', HTTP_ID],
      ['span', QUEUE_ID],
      ['span', INTERNAL_ID],
      ['error', INTERNAL_ID],
    ])
  })

  it('gives every record a stable event_id of its own, the same on a resend', () => {
    const ids = events.map((e) => e['event_id'])
    expect(new Set(ids).size).toBe(events.length)
    for (const id of ids) expect(id).toMatch(UUID_V8)
    const again = otlpSpansToEnvelopes(decoded()).map((e) => e.event['event_id'])
    expect(again).toEqual(ids)
  })

  it('every envelope passes parseEventEnvelope', () => {
    for (const envelope of envelopes) {
      const parsed = parseEventEnvelope(envelope)
      expect(parsed, JSON.stringify(envelope)).toMatchObject({ ok: true })
    }
  })

  it('maps every field of the root span', () => {
    expect(events[0]).toEqual({
      event_type: 'span',
      event_id: expect.stringMatching(UUID_V8),
      message: 'GET /orders/:id',
      release: '1.4.2',
      environment: 'staging',
      trace_id: TRACE_ID,
      span_id: ROOT_ID,
      kind: 'server',
      started_at: '2026-11-26T12:00:00.123Z',
      ended_at: '2026-11-26T12:00:00.373Z',
      duration_ms: 250,
      status: 503,
      context: {
        service: 'checkout',
        resource: RESOURCE,
        scope: SCOPE,
        attributes: ROOT_ATTRIBUTES,
        otel: { kind: 'server', status: 'error', status_message: 'upstream unavailable' },
      },
    })
  })

  it('maps the root SERVER span to a transaction with its HTTP status', () => {
    expect(events[1]).toMatchObject({
      event_type: 'transaction',
      message: 'GET /orders/:id',
      transaction_name: 'GET /orders/:id',
      trace_id: TRACE_ID,
      span_id: ROOT_ID,
      occurred_at: '2026-11-26T12:00:00.123Z',
      duration_ms: 250,
      status: 503,
      context: { service: 'checkout', status_code: 503 },
    })
    const parsed = parseEventEnvelope(envelopes[1])
    expect(parsed.ok && parsed.value.status).toBe(503)
  })

  it('maps child spans with their parent, kind and sub-millisecond duration', () => {
    expect(events[2]).toMatchObject({
      parent_span_id: ROOT_ID,
      kind: 'db',
      duration_ms: 2.5,
      status: 'ok',
      context: { otel: { kind: 'client', status: 'ok' } },
    })
    expect(events[3]).toMatchObject({ kind: 'http', status: 'unset', duration_ms: 40 })
    expect(events[4]).toMatchObject({ kind: 'queue', context: { otel: { kind: 'producer' } } })
    expect(events[5]).toMatchObject({ kind: 'internal', parent_span_id: ROOT_ID })
    const parsed = parseEventEnvelope(envelopes[2])
    expect(parsed.ok && parsed.value).toMatchObject({
      kind: 'db',
      occurred_at: '2026-11-26T12:00:00.133Z',
      context: { parent_span_id: ROOT_ID, trace_id: TRACE_ID },
    })
  })

  it('maps an exception span event to an error event', () => {
    expect(events[6]).toEqual({
      event_type: 'error',
      event_id: expect.stringMatching(UUID_V8),
      message: "TypeError: Cannot read properties of undefined (reading 'id')",
      level: 'error',
      release: '1.4.2',
      environment: 'staging',
      trace_id: TRACE_ID,
      span_id: INTERNAL_ID,
      occurred_at: '2026-11-26T12:00:00.273Z',
      context: {
        service: 'checkout',
        resource: RESOURCE,
        scope: SCOPE,
        span_name: 'render',
        attributes: {
          'exception.type': 'TypeError',
          'exception.message': "Cannot read properties of undefined (reading 'id')",
          'exception.stacktrace': 'TypeError: Cannot read …\n    at render (app.js:10:5)',
        },
        exception: {
          exception_class: 'TypeError',
          message: "Cannot read properties of undefined (reading 'id')",
          stack: 'TypeError: Cannot read …\n    at render (app.js:10:5)',
        },
      },
    })
  })

  it('makes no transaction for a SERVER span with a parent, nor an error without exception', () => {
    const traces: OtlpTraces = {
      resourceSpans: [
        {
          resource: {},
          scopeSpans: [
            {
              scope: { name: '' },
              spans: [
                {
                  traceId: TRACE_ID,
                  spanId: DB_ID,
                  parentSpanId: ROOT_ID,
                  name: '',
                  kind: 2,
                  startTimeUnixNano: '0',
                  endTimeUnixNano: '0',
                  attributes: {},
                  events: [{ name: 'exception', timeUnixNano: '0', attributes: {} }],
                  status: { code: 0 },
                },
              ],
            },
          ],
        },
      ],
    }
    const out = otlpSpansToEnvelopes(traces)
    expect(out.map((e) => e.event['event_type'])).toEqual(['span', 'error'])
    expect(out[0]?.event).not.toHaveProperty('started_at')
    expect(out[0]?.event['message']).toBe('(unnamed span)')
    expect(out[1]?.event).toMatchObject({ message: 'exception', context: { exception: {} } })
    for (const envelope of out) expect(parseEventEnvelope(envelope).ok).toBe(true)
  })
})

describe('tisSpanKind', () => {
  it.each([
    [0, {}, 'internal'],
    [1, {}, 'internal'],
    [2, {}, 'server'],
    [3, {}, 'http'],
    [3, { 'db.system': 'redis' }, 'db'],
    [3, { 'db.system.name': 'postgresql' }, 'db'],
    [4, {}, 'queue'],
    [5, {}, 'queue'],
    [9, {}, 'internal'],
  ])('SpanKind %i with %j → %s', (kind, attributes, expected) => {
    expect(tisSpanKind(kind, attributes)).toBe(expected)
  })
})

describe('httpStatusOf', () => {
  it.each([
    [{ 'http.response.status_code': 201 }, 201],
    [{ 'http.status_code': '404' }, 404],
    [{ 'http.response.status_code': 200, 'http.status_code': 500 }, 200],
    [{ 'http.status_code': 42 }, undefined],
    [{}, undefined],
  ])('%j → %s', (attributes, expected) => {
    expect(httpStatusOf(attributes)).toBe(expected)
  })
})

describe('spanEventId', () => {
  const trace = '5b8efff798038103d269b633813fc60c'
  it('folds the span id and the slot into the trace id, as a UUID v8', () => {
    // low half: d269b633813fc60c ^ eee19b7ec3c1b174 = 3c882d4d42fe7778, variant bits → b…
    expect(spanEventId(trace, 'eee19b7ec3c1b174', 0)).toBe('5b8efff7-9803-8103-bc88-2d4d42fe7778')
    // slot 1 flips bit 48 of the high half: 5b8e… → 5b8f…
    expect(spanEventId(trace, 'eee19b7ec3c1b174', 1)).toBe('5b8ffff7-9803-8103-bc88-2d4d42fe7778')
    expect(spanEventId(trace, 'eee19b7ec3c1b175', 0)).toBe('5b8efff7-9803-8103-bc88-2d4d42fe7779')
  })

  it('is absent without a valid trace id and span id', () => {
    expect(spanEventId('', 'eee19b7ec3c1b174', 0)).toBeUndefined()
    expect(spanEventId(trace, 'not-hex-at-all!!', 0)).toBeUndefined()
  })
})
