import { walkExportJson } from './export-walk'
import { anyValueAt, attributesAt, enumAt, hexIdAt, objectAt, pick, stringAt } from './json-common'
import { nanosAt } from './json-traces'
import type { OtlpLogRecord, OtlpLogs, OtlpValue } from './types'

const SEVERITY_NAMES = [
  'SEVERITY_NUMBER_UNSPECIFIED',
  ...['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR', 'FATAL'].flatMap((level) =>
    ['', '2', '3', '4'].map((n) => `SEVERITY_NUMBER_${level}${n}`),
  ),
]

/** `ExportLogsServiceRequest` from a parsed OTLP/JSON body. */
export function decodeLogsJson(body: unknown): OtlpLogs {
  const levels = {
    resources: ['resourceLogs', 'resource_logs'],
    scopes: ['scopeLogs', 'scope_logs'],
    records: ['logRecords', 'log_records'],
  } as const
  return {
    resourceLogs: walkExportJson(body, levels, logRecordAt).map(({ resource, scopes }) => ({
      resource,
      scopeLogs: scopes.map(({ scope, records }) => ({ scope, logRecords: records })),
    })),
  }
}

function logRecordAt(value: unknown, path: string): OtlpLogRecord {
  const o = objectAt(value, path)
  const optional: {
    severityText?: string
    body?: OtlpValue
    traceId?: string
    spanId?: string
    eventName?: string
  } = {}
  const severityText = stringAt(pick(o, 'severityText', 'severity_text'), `${path}.severityText`)
  if (severityText !== undefined && severityText !== '') optional.severityText = severityText
  if (o['body'] !== undefined && o['body'] !== null) {
    optional.body = anyValueAt(o['body'], `${path}.body`)
  }
  const traceId = hexIdAt(pick(o, 'traceId', 'trace_id'), 32, `${path}.traceId`)
  if (traceId !== undefined) optional.traceId = traceId
  const spanId = hexIdAt(pick(o, 'spanId', 'span_id'), 16, `${path}.spanId`)
  if (spanId !== undefined) optional.spanId = spanId
  const eventName = stringAt(pick(o, 'eventName', 'event_name'), `${path}.eventName`)
  if (eventName !== undefined && eventName !== '') optional.eventName = eventName
  return {
    timeUnixNano: nanosAt(o, 'timeUnixNano', 'time_unix_nano', path),
    observedTimeUnixNano: nanosAt(o, 'observedTimeUnixNano', 'observed_time_unix_nano', path),
    severityNumber: enumAt(
      pick(o, 'severityNumber', 'severity_number'),
      SEVERITY_NAMES,
      `${path}.severityNumber`,
    ),
    attributes: attributesAt(o['attributes'], `${path}.attributes`),
    ...optional,
  }
}
