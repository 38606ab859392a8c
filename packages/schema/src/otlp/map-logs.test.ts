import { JsonLogsSerializer, ProtobufLogsSerializer } from '@opentelemetry/otlp-transformer'
import { describe, expect, it } from 'vitest'
import { ROOT_ID, sampleLogs, TRACE_ID } from '../../test/otel-fixtures'
import { parseEventEnvelope } from '../event'
import { decodeOtlpLogs } from './decode'
import { levelOfSeverity, otlpLogsToEnvelopes } from './map-logs'

describe.each([
  ['protobuf', 'application/x-protobuf', ProtobufLogsSerializer],
  ['OTLP/JSON', 'application/json', JsonLogsSerializer],
] as const)('otlpLogsToEnvelopes (%s)', (_, type, serializer) => {
  const result = decodeOtlpLogs(serializer.serializeRequest(sampleLogs()) ?? new Uint8Array(), type)
  if (!result.ok) throw new Error(result.message)
  const envelopes = otlpLogsToEnvelopes(result.value)
  const events = envelopes.map((e) => e.event)

  it('every envelope passes parseEventEnvelope', () => {
    expect(envelopes).toHaveLength(4)
    for (const envelope of envelopes) {
      expect(parseEventEnvelope(envelope), JSON.stringify(envelope)).toMatchObject({ ok: true })
    }
  })

  it('maps every field of a correlated record', () => {
    expect(events[0]).toEqual({
      event_type: 'log',
      message: 'disk almost full',
      level: 'warn',
      release: '1.4.2',
      environment: 'staging',
      occurred_at: '2026-11-26T12:00:00.123Z',
      trace_id: TRACE_ID,
      span_id: ROOT_ID,
      context: {
        service: 'checkout',
        resource: {
          'service.name': 'checkout',
          'service.version': '1.4.2',
          'deployment.environment.name': 'staging',
        },
        scope: { name: '@acme/instrumentation', version: '0.9.1' },
        attributes: { 'disk.free_bytes': 1024, 'disk.path': '/var' },
        otel: { severity_number: 13, severity_text: 'WARN' },
      },
    })
  })

  it('writes a structured body as JSON and bytes as base64', () => {
    expect(events[1]).toMatchObject({
      message: '{"user":{"id":7,"roles":["admin","ops"]},"ok":false,"ratio":1.5}',
      level: 'error',
    })
    expect(events[1]).not.toHaveProperty('trace_id')
    expect(events[2]).toMatchObject({ message: 'AQL/', level: 'debug' })
  })

  it('falls back to the observed time when the record has none', () => {
    expect(events[3]).toMatchObject({
      message: 'dying',
      level: 'fatal',
      occurred_at: '2026-11-26T12:00:00.124Z',
    })
  })
})

describe('otlpLogsToEnvelopes without times or body', () => {
  it('leaves occurred_at to the receive time and names the empty record', () => {
    const [envelope] = otlpLogsToEnvelopes({
      resourceLogs: [
        {
          resource: {},
          scopeLogs: [
            {
              scope: { name: '' },
              logRecords: [
                {
                  timeUnixNano: '0',
                  observedTimeUnixNano: '0',
                  severityNumber: 0,
                  attributes: {},
                },
              ],
            },
          ],
        },
      ],
    })
    expect(envelope?.event).not.toHaveProperty('occurred_at')
    expect(envelope?.event).toMatchObject({ message: '(empty log record)', level: 'info' })
    const now = new Date('2026-11-26T13:00:00Z')
    const parsed = parseEventEnvelope(envelope, { now })
    expect(parsed.ok && parsed.value.occurred_at).toBe(now.toISOString())
  })
})

describe('levelOfSeverity', () => {
  it.each([
    [1, 'debug'],
    [4, 'debug'],
    [5, 'debug'],
    [8, 'debug'],
    [9, 'info'],
    [12, 'info'],
    [13, 'warn'],
    [16, 'warn'],
    [17, 'error'],
    [20, 'error'],
    [21, 'fatal'],
    [24, 'fatal'],
  ])('SeverityNumber %i → %s', (severity, level) => {
    expect(levelOfSeverity(severity)).toBe(level)
  })

  it.each([
    [0, undefined, 'info'],
    [0, 'WARNING', 'warn'],
    [0, 'Error', 'error'],
    [0, 'TRACE', 'debug'],
    [0, 'verbose', 'info'],
    [25, 'fatal', 'fatal'],
    [-1, undefined, 'info'],
  ])('SeverityNumber %i with text %j → %s', (severity, text, level) => {
    expect(levelOfSeverity(severity, text)).toBe(level)
  })
})
