import { nanosToIso, resourceContext, resourceFields, valueText } from './map-common'
import type { OtlpEventEnvelope } from './map-spans'
import type { OtlpLogRecord, OtlpLogs } from './types'

const LEVELS_BY_SEVERITY_BAND = ['debug', 'debug', 'info', 'warn', 'error', 'fatal'] as const
const LEVEL_NAMES = new Set(['debug', 'info', 'warn', 'error', 'fatal'])

/**
 * The tis level of an OTel `SeverityNumber`: 1–4 (TRACE) and 5–8 (DEBUG) → `debug`, 9–12 →
 * `info`, 13–16 → `warn`, 17–20 → `error`, 21–24 → `fatal`. For 0 (unspecified) or an
 * out-of-range number, the severity text when it names a level (`WARN` → `warn`), else `info`.
 */
export function levelOfSeverity(severityNumber: number, severityText?: string): string {
  const band = LEVELS_BY_SEVERITY_BAND[Math.floor((severityNumber - 1) / 4)]
  if (severityNumber >= 1 && band !== undefined) return band
  const text = severityText?.toLowerCase()
  if (text === 'warning') return 'warn'
  if (text === 'trace') return 'debug'
  return text !== undefined && LEVEL_NAMES.has(text) ? text : 'info'
}

/**
 * Maps decoded OTLP logs to native `log` event envelopes, one per record: the body as
 * `message`, the level from the severity, `occurred_at` from the record's time (else its
 * observed time), its trace and span ids, and its attributes, resource and scope in `context`.
 */
export function otlpLogsToEnvelopes(decoded: OtlpLogs): OtlpEventEnvelope[] {
  const out: OtlpEventEnvelope[] = []
  for (const { resource, scopeLogs } of decoded.resourceLogs) {
    const shared = resourceFields(resource)
    for (const { scope, logRecords } of scopeLogs) {
      const base = resourceContext(resource, scope)
      for (const record of logRecords) {
        out.push({ event: logEvent(record, shared, base) })
      }
    }
  }
  return out
}

function logEvent(
  record: OtlpLogRecord,
  shared: Record<string, string>,
  base: Record<string, unknown>,
): Record<string, unknown> {
  const occurredAt = nanosToIso(record.timeUnixNano) ?? nanosToIso(record.observedTimeUnixNano)
  const message = valueText(record.body) || record.eventName || '(empty log record)'
  const otel: Record<string, unknown> = { severity_number: record.severityNumber }
  if (record.severityText !== undefined) otel['severity_text'] = record.severityText
  if (record.eventName !== undefined) otel['event_name'] = record.eventName
  return {
    event_type: 'log',
    message,
    level: levelOfSeverity(record.severityNumber, record.severityText),
    ...shared,
    ...(occurredAt === undefined ? {} : { occurred_at: occurredAt }),
    ...(record.traceId === undefined ? {} : { trace_id: record.traceId }),
    ...(record.spanId === undefined ? {} : { span_id: record.spanId }),
    context: { ...base, attributes: record.attributes, otel },
  }
}
